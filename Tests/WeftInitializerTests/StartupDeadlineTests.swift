import Testing

@testable import WeftInitializer

@MainActor
@Suite("A deadline for the whole start-up", .timeLimit(.minutes(1)))
struct StartupDeadlineTests {
    /// `fast` finishes at once; `retrying` fails its first attempt once the clock passes 1 s and waits 10 s;
    /// `hanging` runs until cancelled, from 2 s (it waits for `gate`, which ends at 2 s).
    private func steps(_ clock: ManualClock) -> [InitializationStep<TestProcess>] {
        let failed = Flag()
        return [
            .async("fast", title: "Fast") { _ in },
            .async("retrying", title: "Retrying", retry: .exponential(attempts: 3, baseDelay: .seconds(10), jitter: 0))
            {
                _ in
                if await failed.set() {
                    try await clock.sleep(until: .init(offset: .seconds(1)))
                    throw TestError(message: "not yet")
                }
            },
            .async("gate", title: "Gate") { _ in try await clock.sleep(until: .init(offset: .seconds(2))) },
            .async("hanging", title: "Hanging", after: ["gate"]) { _ in try await suspendUntilCancelled() },
        ]
    }

    @Test("When it passes, every step still going is cancelled, and the failure names them, the earliest first")
    func deadlinePasses() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() }, steps: steps(clock), clock: InitializationClock(clock),
            deadline: .seconds(5))
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(3))  // the deadline, retrying's first attempt, the gate
        clock.advance(to: .seconds(2))
        // Wait until the run has seen retrying fail and hanging start (at 2 s on the clock).
        var seen: Set<String> = []
        for await event in events {
            switch event {
            case .stepRetrying(let step, _, _, _): seen.insert(step.id)
            case .stepStarted(let step) where step.id == "hanging": seen.insert(step.id)
            default: break
            }
            if seen == ["retrying", "hanging"] { break }
        }
        #expect(await clock.waitForSleepers(2))  // the deadline and retrying's 10 s delay
        #expect(clock.deadlines == [.seconds(5), .seconds(12)])  // retrying failed when the clock reached 2 s
        clock.advance(to: .seconds(5))
        let failure = try #require(
            await #expect(throws: InitializationFailure<TestProcess>.self) { try await run.value })
        let exceeded = try #require(failure.error as? InitializationDeadlineExceeded)
        #expect(exceeded.deadline == .seconds(5))
        #expect(exceeded.pending.map(\.step.id) == ["retrying", "hanging"])
        #expect(exceeded.pending.map(\.goingFor) == [.seconds(5), .seconds(3)])
        // Retrying waits out its delay after one attempt: it ran one, and says so (not "attempt 2").
        #expect(exceeded.pending.map(\.attempt) == [1, 1])
        #expect(exceeded.pending.map(\.isWaitingToRetry) == [true, false])
        #expect(failure.failedStep.id == "retrying")  // the step that held it up longest
        #expect(!failure.isCancellation)
        #expect(
            exceeded.description
                == "Start-up did not finish within its 5.0 s deadline: 'Retrying' was still going after 5.0 s "
                + "(waiting to retry after 1 attempt); 'Hanging' was still going after 3.0 s.")
        // Every value the message names reads as the step, not as its fields.
        #expect("\(exceeded.pending[1])" == "'Hanging' was still going after 3.0 s")
        #expect("\(exceeded.pending[1].step)" == "'Hanging' (hanging, graph)")
        let outcomes = Dictionary(uniqueKeysWithValues: failure.report.steps.map { ($0.step.id, $0.outcome) })
        #expect(outcomes == ["fast": .finished, "retrying": .cancelled, "gate": .finished, "hanging": .cancelled])
        #expect(failure.report.missedDeadline == .seconds(5))
        #expect(failure.report.traceEventJSON().contains(#"{"name":"deadline passed","ph":"i","s":"g","ts":5000000"#))
        #expect(clock.sleeperCount == 0)
    }

    @Test("A run that ends in time is untouched, and its deadline's timer is gone")
    func inTime() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() }, steps: [.async("fast") { _ in }], clock: InitializationClock(clock),
            deadline: .seconds(5))
        let result = try await initializer.run()
        #expect(result.report.missedDeadline == nil)
        #expect(await clock.waitForSleepers(0))
    }

    @Test("A run with only steps after ready is ready at once: its deadline, which bounds ready, never fails it")
    func onlyLaterSteps() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("warm", schedule: .afterReady) { _ in try await clock.sleep(until: .init(offset: .seconds(9))) }
            ],
            clock: InitializationClock(clock), deadline: .seconds(5))
        let result = try await initializer.run()
        #expect(await clock.waitForSleepers(1))  // the step alone: no deadline's timer
        clock.advance(to: .seconds(9))
        let report = await result.waitForLaterSteps()
        #expect(report.missedDeadline == nil)
        #expect(report.steps.map(\.outcome) == [.finished])
    }

    @Test("A synchronous step runs to its end; one that ends past the deadline fails the run, and nothing starts after")
    func synchronousOverrun() async throws {
        for hasNext in [true, false] {
            let clock = ManualClock()
            var steps: [InitializationStep<TestProcess>] = [
                .sync("slow", title: "Slow") { _ in clock.advance(to: .seconds(6)) }  // takes 6 s on the clock
            ]
            if hasNext { steps.append(.sync("next", title: "Next", after: ["slow"]) { $0.append("next") }) }
            let initializer = try DependencyInitializer(
                createProcess: { TestProcess() }, steps: steps, clock: InitializationClock(clock), deadline: .seconds(5)
            )
            let failure = try #require(
                await #expect(throws: InitializationFailure<TestProcess>.self) { try await initializer.run() })
            let exceeded = try #require(failure.error as? InitializationDeadlineExceeded)
            #expect(exceeded.pending.map(\.step.id) == ["slow"])
            #expect(exceeded.pending.map(\.goingFor) == [.seconds(5)])
            #expect(failure.failedStep.id == "slow")
            #expect(failure.process.log.isEmpty, "no step starts past the deadline")
        }
    }

    @Test("The phases take a deadline too, and a repeat keeps it")
    func phasesAndRepeat() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "Hang", type: .repeatable) { _ in try await suspendUntilCancelled() }
            ],
            deadline: .milliseconds(20))  // wall clock; the step never ends, so it cannot beat it
        let failure = try #require(
            await #expect(throws: InitializationFailure<TestProcess>.self) { try await initializer.run() })
        // On a loaded machine the deadline may pass before the step starts: it is named either way.
        let exceeded = try #require(failure.error as? InitializationDeadlineExceeded)
        #expect(exceeded.pending.map(\.step.title) + [exceeded.nextStep?.title].compactMap { $0 } == ["Hang"])
        #expect(failure.failedStep.title == "Hang")
        let again = try #require(
            await #expect(throws: InitializationFailure<TestProcess>.self) { try await failure.runRepeat() })
        #expect((again.error as? InitializationDeadlineExceeded)?.deadline == .milliseconds(20))
    }
}

/// `set()` is `true` the first time only.
private actor Flag {
    private var isSet = false
    func set() -> Bool {
        defer { isSet = true }
        return !isSet
    }
}
