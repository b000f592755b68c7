import Foundation
import Testing
import WeftInitializer

/// An async graph step that appends its id to the process log.
private func logged(
    _ id: String, after: [String] = [], type: InitializationStepType = .simple, optional: Bool = false
) -> InitializationStep<TestProcess> {
    .async(id, type: type, after: after, optional: optional) { process in await process.append(id) }
}

/// An async graph step that waits for `gate`, then appends its id to the process log.
private func gated(_ id: String, after: [String] = [], gate: Gate) -> InitializationStep<TestProcess> {
    .async(id, after: after) { process in
        await gate.wait()
        await process.append(id)
    }
}

/// An async graph step that sleeps `milliseconds` on `clock`, then appends its id.
private func timed(
    _ id: String, _ milliseconds: Int, after: [String] = [], on clock: ManualClock
) -> InitializationStep<TestProcess> {
    .async(id, after: after) { process in
        try await clock.sleep(for: .milliseconds(milliseconds))
        await process.append(id)
    }
}

/// Counts calls from any task.
private actor Counter {
    private(set) var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}

/// The configuration error `make` throws, if it throws one.
@MainActor
private func configurationError(
    _ make: () throws -> DependencyInitializer<TestProcess>
) -> InitializationConfigurationError? {
    do {
        _ = try make()
        return nil
    } catch {
        return error as? InitializationConfigurationError
    }
}

@MainActor
@Suite("Start-up as a graph", .timeLimit(.minutes(1)))
struct StartupGraphTests {
    // MARK: Configuration

    @Test("a circle of prerequisites is a typed error naming the circle, before anything runs")
    func cycle() {
        var created = false
        #expect {
            _ = try DependencyInitializer(
                createProcess: {
                    created = true
                    return TestProcess()
                },
                steps: [logged("a", after: ["c"]), logged("b", after: ["a"]), logged("c", after: ["b"]), logged("d")])
        } throws: { error in
            guard let error = error as? InitializationConfigurationError else { return false }
            return error.code == .cycle && Set(error.steps) == ["a", "b", "c"] && error.steps.count == 4
                && error.steps.first == error.steps.last && error.description.contains("→")
        }
        #expect(!created)
    }

    @Test("a step waiting for itself is a circle of one")
    func selfCycle() {
        let error = configurationError {
            try DependencyInitializer(createProcess: { TestProcess() }, steps: [logged("a", after: ["a"])])
        }
        #expect(error?.code == .cycle && error?.steps == ["a", "a"])
    }

    @Test("a missing prerequisite, a duplicate id, a bad retry policy and no steps are typed errors")
    func malformed() {
        let missing = configurationError {
            try DependencyInitializer(
                createProcess: { TestProcess() }, steps: [logged("a"), logged("b", after: ["a", "nope"])])
        }
        #expect(missing?.code == .missingPrerequisite && missing?.steps == ["b", "nope"])
        #expect(missing?.description.contains("'nope'") == true)
        let typo = configurationError {
            try DependencyInitializer(
                createProcess: { TestProcess() }, steps: [logged("history"), logged("fact", after: ["histroy"])])
        }
        #expect(typo?.description.contains("no step has that id. Did you mean 'history'?") == true)
        let duplicate = configurationError {
            try DependencyInitializer(createProcess: { TestProcess() }, steps: [logged("a"), logged("a")])
        }
        #expect(duplicate?.code == .duplicateStepID && duplicate?.steps == ["a"])
        #expect {
            _ = try DependencyInitializer(
                createProcess: { TestProcess() },
                steps: [.async("a", retry: .exponential(attempts: 0)) { _ in }])
        } throws: { error in
            (error as? InitializationConfigurationError)?.code == .invalidRetry
                && "\(error)".contains("'a'") && "\(error)".contains("at least 1")
        }
        #expect(
            configurationError { try DependencyInitializer(createProcess: { TestProcess() }, steps: []) }?.code
                == .noSteps)
    }

    @Test("the plan lists ids, prerequisites and flags; the three phases get ids and implied prerequisites")
    func plan() throws {
        let graph = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                logged("a"), .sync("b", title: "Bee", after: ["a", "a"]) { _ in },
                .async("c", after: ["a"], optional: true, retry: .exponential(attempts: 3)) { _ in },
            ])
        #expect(graph.plan.map(\.id) == ["a", "b", "c"])
        #expect(graph.plan.map(\.title) == ["a", "Bee", "c"])
        #expect(graph.plan.map(\.after) == [[], ["a"], ["a"]])
        #expect(graph.plan.map(\.isAsync) == [true, false, true])
        #expect(graph.plan.map(\.isOptional) == [false, false, true])
        #expect(graph.plan.map(\.retry.attempts) == [1, 1, 3])
        #expect(graph.plan.allSatisfy { $0.phase == .graph })

        let journal = Journal()
        let phases = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("p1"), logStep("p2")],
            asyncSteps: [logStep("a1", journal: journal), logStep("a2", journal: journal)],
            postSyncSteps: [logStep("q1")])
        #expect(phases.plan.map(\.id) == ["pre-sync.1", "pre-sync.2", "async.1", "async.2", "post-sync.1"])
        #expect(
            phases.plan.map(\.after) == [
                [], ["pre-sync.1"], ["pre-sync.2"], ["pre-sync.2"], ["async.1", "async.2"],
            ])
    }

    @Test("step descriptions compare and hash by value, whoever made them; a run's timings agree in both orders")
    func valueSemantics() async throws {
        let steps: [InitializationStep<TestProcess>] = [logged("a"), .sync("b", after: ["a"]) { _ in }]
        let one = try DependencyInitializer(createProcess: { TestProcess() }, steps: steps)
        let other = try DependencyInitializer(createProcess: { TestProcess() }, steps: steps)
        #expect(one.plan == other.plan)
        #expect(Set(one.plan + other.plan).count == 2)
        #expect(one.plan[0] != one.plan[1])
        let renamed = try DependencyInitializer(
            createProcess: { TestProcess() }, steps: [logged("a"), .sync("b", title: "Bee", after: ["a"]) { _ in }])
        #expect(renamed.plan[0] == one.plan[0] && renamed.plan[1] != one.plan[1])

        let result = try await one.run()
        #expect(result.report.steps.map(\.step) == one.plan)
        #expect(result.stepTimings.map(\.step.id) == ["a", "b"])
        #expect(Set(result.stepTimings) == Set(result.report.steps))
        #expect(result.report.steps.map(\.attempts) == [1, 1])
        #expect(result.report.steps.map(\.heldBy) == [nil, "a"])
    }

    // MARK: Scheduling

    @Test("a step starts when its own prerequisites finish, without waiting for unrelated steps")
    func noIdleWaiting() async throws {
        let gate = Gate()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                gated("slow", gate: gate), logged("a"), logged("b", after: ["a"]),
                .sync("c", after: ["b"]) { process in process.append("c") },
                .async("open", after: ["c"]) { _ in await gate.open() },
                logged("last", after: ["slow", "open"]),
            ])
        // "slow" finishes only once "open" ran, which needs a → b → c: a phased run would deadlock.
        let result = try await initializer.run()
        let log = result.container.log
        #expect(log.firstIndex(of: "c")! < log.firstIndex(of: "slow")!)
        #expect(log.last == "last")
        let last = try #require(result.report.steps.first { $0.step.id == "last" })
        #expect(["slow", "open"].contains(last.heldBy))
        #expect(result.report.steps.map(\.outcome).allSatisfy { $0 == .finished })
    }

    @Test("sync steps of a graph run on the main actor, after async prerequisites, in the run's task")
    func syncAfterAsync() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                logged("fetch"),
                .sync("assemble", after: ["fetch"]) { process in
                    MainActor.preconditionIsolated()
                    process.append("assemble \(process.log)")
                },
            ])
        let result = try await initializer.run()
        #expect(result.container.log == ["fetch", "assemble [\"fetch\"]"])
    }

    @Test("a graph run whose task is cancelled before it starts fails at its first step and runs nothing")
    func cancelledBeforeStart() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [.sync("first") { process in process.append("first") }, logged("second", after: ["first"])])
        let run = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await initializer.run()
        }
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        #expect(failure.isCancellation)
        #expect(failure.failedStep.id == "first")
        #expect(failure.process.log.isEmpty)
        #expect(failure.report.steps.isEmpty)
    }

    // MARK: Optional steps

    @Test("an optional step that fails skips exactly its dependents, and the run succeeds degraded")
    func optionalFailure() async throws {
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                logged("env"),
                .async("history", after: ["env"], optional: true) { _ in throw TestError(message: "disk full") },
                logged("stats", after: ["history"]), logged("badge", after: ["stats", "env"]),
                logged("fact", after: ["env"]),
            ])
        let events = initializer.events()
        let result = try await initializer.run()
        for await event in events {
            if case .stepSkipped(let timing) = event { await journal.record("skip \(timing.step.id)") }
            if case .stepFailed(let timing, _) = event { await journal.record("fail \(timing.step.id)") }
        }
        #expect(result.isDegraded)
        #expect(result.report.failedOptionalSteps.map(\.id) == ["history"])
        #expect(result.report.skippedSteps.map(\.id) == ["stats", "badge"])
        #expect(Set(result.container.log) == ["env", "fact"])
        #expect(await journal.entries == ["fail history", "skip stats", "skip badge"])
        let badge = try #require(result.report.steps.first { $0.step.id == "badge" })
        #expect(badge.outcome == .skipped && badge.attempts == 0)
    }

    @Test("runRepeat after a degraded run retries the failed optional step and what it skipped, and keeps the rest")
    func repeatDegraded() async throws {
        let failures = Counter()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                logged("settings"),
                logged("env", after: ["settings"], type: .repeatable),
                .async("history", after: ["settings"], optional: true) { process in
                    if await failures.next() == 1 { throw TestError(message: "locked") }
                    await process.append("history")
                },
                logged("stats", after: ["history"]),
                logged("fact", after: ["env"]),
            ])
        let first = try await initializer.run()
        #expect(first.isDegraded)
        let again = try first.repeatInitializer()
        #expect(again.plan.map(\.id) == ["env", "history", "stats", "fact"])
        #expect(again.plan.first { $0.id == "env" }?.after == [])
        let second = try await again.run()
        #expect(!second.isDegraded)
        #expect(Set(second.container.log) == ["env", "history", "stats", "fact"])
        // Nothing failed this time: only repeatable steps and their dependents run again.
        #expect(try second.repeatInitializer().plan.map(\.id) == ["env", "fact"])
    }

    @Test("a required step that fails ends the run, cancels what runs and reports once")
    func requiredFailure() async throws {
        let log = CallbackLog()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("hang") { _ in try await suspendUntilCancelled() },
                .async("boom") { _ in throw TestError(message: "boom") },
                logged("after", after: ["boom"]),
            ],
            callbacks: InitializationCallbacks(onError: { failure in log.failures.append(failure) }))
        await #expect(throws: InitializationFailure<TestProcess>.self) { try await initializer.run() }
        #expect(log.failures.count == 1)
        let failure = try #require(log.failures.first)
        #expect(failure.failedStep.id == "boom")
        #expect(failure.report.steps.map(\.outcome) == [.cancelled, .failed])
        #expect(failure.process.log.isEmpty)
    }

    // MARK: Retry with backoff

    @Test("a failing attempt is retried after an exponential delay on the injected clock, with events")
    func retryBackoff() async throws {
        let clock = ManualClock()
        let attempts = Counter()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async(
                    "fact", retry: .exponential(attempts: 3, baseDelay: .milliseconds(100), jitter: 0)
                ) { process in
                    let attempt = await attempts.next()
                    if attempt < 3 { throw TestError(message: "attempt \(attempt)") }
                    await process.append("fact")
                }
            ],
            clock: InitializationClock(clock))
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [.milliseconds(100)])
        clock.advance(to: .milliseconds(100))
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [.milliseconds(300)])
        clock.advance(to: .milliseconds(300))
        let result = try await run.value
        var retries: [String] = []
        for await event in events {
            if case .stepRetrying(let step, let attempt, let delay, let error) = event {
                retries.append("\(step.id) \(attempt) \(delay) \(error)")
            }
        }
        #expect(retries == ["fact 2 0.1 seconds attempt 1", "fact 3 0.2 seconds attempt 2"])
        let fact = try #require(result.report.steps.first)
        #expect(fact.attempts == 3 && fact.outcome == .finished)
        #expect(fact.startOffset == .zero && fact.duration == .milliseconds(300))
        #expect(result.container.log == ["fact"])
    }

    @Test("a timeout applies to each attempt: a hung attempt is cancelled at once and the next one runs")
    func timeoutPerAttempt() async throws {
        let clock = ManualClock()
        let attempts = Counter()
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async(
                    "fact", timeout: .seconds(1),
                    retry: .exponential(attempts: 2, baseDelay: .milliseconds(50), jitter: 0)
                ) { process in
                    if await attempts.next() == 1 {
                        do { try await suspendUntilCancelled() } catch { await journal.record("attempt 1 cancelled") }
                        return
                    }
                    await process.append("fact")
                }
            ],
            clock: InitializationClock(clock))
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [.seconds(1)])
        clock.advance(to: .seconds(1))
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [.milliseconds(1050)])
        // Cancelled at its timeout, while the run waits to retry.
        var cancelled = false
        for _ in 0..<10_000 where !cancelled {
            cancelled = await journal.entries == ["attempt 1 cancelled"]
            await Task.yield()
        }
        #expect(cancelled)
        clock.advance(to: .milliseconds(1050))
        let result = try await run.value
        #expect(result.container.log == ["fact"])
        #expect(result.report.steps.first?.attempts == 2)
    }

    @Test("every attempt failing fails the run with the last attempt's error")
    func retryExhausted() async throws {
        let attempts = Counter()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("fact", retry: .exponential(attempts: 3, baseDelay: .zero)) { _ in
                    throw TestError(message: "attempt \(await attempts.next())")
                }
            ])
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) {
            try await initializer.run()
        }
        #expect("\(failure.error)" == "attempt 3")
        #expect(failure.report.steps.first?.attempts == 3)
    }

    @Test("cancelling the run during a retry delay ends it at once, with that step cancelled")
    func cancelDuringBackoff() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("fact", retry: .exponential(attempts: 5, baseDelay: .seconds(60))) { _ in
                    throw TestError(message: "down")
                }
            ],
            clock: InitializationClock(clock))
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(1))
        run.cancel()
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        #expect(failure.isCancellation)
        #expect(failure.report.steps.first?.attempts == 1)
        #expect(await clock.waitForSleepers(0))
    }

    @Test("the delay before attempt n doubles from the base delay up to the maximum, less at most the jitter")
    func backoffDelays() {
        let policy = InitializationRetry.exponential(
            attempts: 10, baseDelay: .milliseconds(100), maxDelay: .milliseconds(700), jitter: 0.5)
        #expect(
            (1...6).map { policy.delay(before: $0, random: 0) }
                == [0, 100, 200, 400, 700, 700].map { .milliseconds($0) })
        #expect(policy.delay(before: 3, random: 1) == .milliseconds(100))
        #expect(policy.delay(before: 3, random: 0.5) == .milliseconds(150))
        #expect(InitializationRetry.never.attempts == 1)
        #expect(policy.delay(before: 1_000, random: 0) == .milliseconds(700))
    }

    // MARK: Critical chain, blame, trace

    @Test("the critical chain follows the prerequisite that finished last; blame lists steps longest first")
    func criticalChain() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                timed("env", 10, on: clock), timed("db", 50, on: clock),
                timed("client", 20, after: ["env"], on: clock),
                timed("fact", 30, after: ["client", "db"], on: clock),
                timed("warm", 5, after: ["env"], on: clock),
            ],
            clock: InitializationClock(clock))
        let ends = StepEnds(initializer.events())
        let run = Task { try await initializer.run() }
        // Before each moment: how many steps sleep, and how many have ended.
        for (sleepers, ended, time) in [(2, 0, 10), (3, 1, 15), (2, 2, 30), (1, 3, 50), (1, 4, 80)] {
            let settled = await waitUntil { clock.sleeperCount == sleepers && ends.count == ended }
            #expect(settled, "at \(time) ms")
            guard settled else {
                run.cancel()
                return
            }
            clock.advance(to: .milliseconds(time))
        }
        let result = try await run.value
        let report = result.report
        #expect(report.elapsed == .milliseconds(80))
        #expect(report.criticalChain.map(\.step.id) == ["db", "fact"])
        #expect(
            report.blame.map(\.step.id) == ["db", "fact", "client", "env", "warm"],
            "\(report.blame.map { "\($0.step.id) \($0.startOffset) \($0.duration)" })")
        let fact = try #require(report.steps.first { $0.step.id == "fact" })
        #expect(fact.heldBy == "db" && fact.startOffset == .milliseconds(50))
        let chainTime = report.criticalChain.reduce(Duration.zero) { $0 + $1.duration }
        #expect(chainTime == report.elapsed)
    }

    @Test("the trace is Chrome trace-event JSON: one complete event per attempt with id, after, outcome, critical")
    func traceEvents() async throws {
        let attempts = Counter()
        // `fact`'s second attempt ends at 10 ms on a clock the test moves, after `history` failed
        // at 0 ms, whatever the machine's load: `fact` ends last and is on the critical chain.
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                logged("env"),
                .async("fact \"quoted\"", after: ["env"], retry: .exponential(attempts: 2, baseDelay: .zero)) { _ in
                    if await attempts.next() == 1 { throw TestError(message: "once") }
                    try await clock.sleep(until: .init(offset: .milliseconds(10)))
                },
                .async("history", optional: true) { _ in throw TestError(message: "no") },
                logged("stats", after: ["history"]),
            ],
            clock: InitializationClock(clock))
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(1))
        clock.advance(to: .milliseconds(10))
        let result = try await run.value
        let json = result.report.traceEventJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        #expect(complete.count == 4)  // env, fact twice, history; stats was skipped
        let facts = complete.filter { ($0["args"] as? [String: Any])?["id"] as? String == "fact \"quoted\"" }
        #expect(facts.map { ($0["args"] as? [String: Any])?["outcome"] as? String } == ["failed", "finished"])
        #expect(facts.map { ($0["args"] as? [String: Any])?["attempt"] as? Int } == [1, 2])
        let args = try #require(facts.first?["args"] as? [String: Any])
        #expect(args["after"] as? [String] == ["env"])
        #expect(args["critical"] as? Bool == true)
        let history = try #require(complete.first { $0["name"] as? String == "history" }?["args"] as? [String: Any])
        #expect(history["critical"] as? Bool == false && history["optional"] as? Bool == true)
        for event in complete {
            #expect(event["ts"] is Int && event["dur"] is Int && event["tid"] is Int && event["pid"] is Int)
        }
    }
}
