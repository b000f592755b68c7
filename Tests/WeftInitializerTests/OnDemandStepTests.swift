import Testing

@testable import WeftInitializer

/// Counts the runs of a step's work, and holds each run until the test opens the gate.
private actor StepGate {
    private(set) var runs = 0
    private var isOpen: Bool
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(open: Bool = true) { isOpen = open }

    private var counted: [(Int, CheckedContinuation<Void, Never>)] = []

    /// Returns once `count` runs have reached the gate.
    func waitForRuns(_ count: Int) async {
        guard runs < count else { return }
        await withCheckedContinuation { counted.append((count, $0)) }
    }

    /// Counts a run, then waits for the gate to open.
    func pass() async {
        runs += 1
        for (count, waiter) in counted where count <= runs { waiter.resume() }
        counted.removeAll { $0.0 <= runs }
        testChanges.notify()
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiting { waiter.resume() }
        waiting = []
    }
}

@MainActor
@Suite("On-demand steps", .timeLimit(.minutes(1)))
struct OnDemandStepTests {
    private func initializer(
        _ steps: [InitializationStep<TestProcess>], clock: InitializationClock = .continuous
    ) throws -> DependencyInitializer<TestProcess> {
        try DependencyInitializer(createProcess: { TestProcess() }, steps: steps, clock: clock)
    }

    /// A started run whose one on-demand step, `value`, passes `gate` (closed until the test
    /// opens it) and returns `result`.
    private func gated(returning result: Int) async throws -> (OnDemand<Int>, StepGate) {
        let gate = StepGate(open: false)
        let value = OnDemand<Int>("value")
        _ = try await initializer([
            .sync("env") { _ in },
            .onDemand(value) { _ in
                await gate.pass()
                return result
            },
        ]).run()
        value.waitersChanged = { testChanges.notify() }
        return (value, gate)
    }

    @Test("The run neither starts nor waits for an on-demand step; the first request runs it, once")
    func runsOnFirstRequest() async throws {
        let gate = StepGate()
        let database = OnDemand<String>("database")
        let result = try await initializer([
            .sync("env") { process in process.append("env") },
            .onDemand(database, title: "Open the database", after: ["env"]) { process in
                await gate.pass()
                return "db of \(process.environment)"
            } apply: { process, value in
                process.database = value
            },
        ]).run()

        #expect(result.container.log == ["env"])
        #expect(result.report.steps.map(\.step.id) == ["env"])
        #expect(await gate.runs == 0)
        #expect(!database.hasValue)

        #expect(try await database.value() == "db of default")
        #expect(try await database.value() == "db of default")
        #expect(await gate.runs == 1)
        #expect(result.process.database == "db of default")
        #expect(result.onDemandSteps.map(\.step.id) == ["database"])
        #expect(result.onDemandSteps.first?.outcome == .finished)
        #expect(result.onDemandSteps.first?.step.isOnDemand == true)
        #expect(result.onDemandSteps.first?.step.schedule == .afterReady)
        // Asked for after the run: the request held it, not a prerequisite.
        #expect(result.onDemandSteps.first?.heldBy == nil)
    }

    @Test("Concurrent first requests share one run of the step")
    func concurrentRequestsShareOneRun() async throws {
        let (value, gate) = try await gated(returning: 42)
        let requests = (0..<5).map { _ in Task { @MainActor in try await value.value() } }
        #expect(await waitUntil { value.waitingRequests == 5 })
        await gate.open()
        for request in requests { #expect(try await request.value == 42) }
        #expect(await gate.runs == 1)
    }

    @Test("A failure is the request's typed error naming the step; the next request runs it again")
    func failureNamesTheStep() async throws {
        let gate = StepGate()
        let flaky = OnDemand<String>("flaky")
        let result = try await initializer([
            .sync("env") { _ in },
            .onDemand(flaky, title: "Reach the flaky service", retry: .exponential(attempts: 2, baseDelay: .zero)) {
                _ in
                await gate.pass()
                if await gate.runs <= 2 { throw TestError(message: "no route to host") }
                return "reached"
            },
        ]).run()

        let error = try await #require(throws: OnDemandStepError.self) { try await flaky.value() }
        #expect(error.code == .failed)
        #expect(error.step.id == "flaky")
        #expect(error.attempts == 2)
        #expect((error.underlyingError as? TestError)?.message == "no route to host")
        #expect(
            error.description
                == "On-demand step 'flaky' (Reach the flaky service) failed after 2 attempts: no route to host. "
                + "The next request for its value runs it again.")
        #expect(!flaky.hasValue)

        #expect(try await flaky.value() == "reached")
        #expect(await gate.runs == 3)
        #expect(result.onDemandSteps.map(\.outcome) == [.failed, .finished])
        #expect(result.onDemandSteps.first?.attempts == 2)
    }

    @Test("An on-demand step asks for the on-demand steps it waits for first, and fails when one failed")
    func onDemandPrerequisites() async throws {
        let order = Journal()
        let index = OnDemand<String>("index")
        let search = OnDemand<String>("search")
        let broken = OnDemand<String>("broken")
        let report = OnDemand<String>("report")
        _ = try await initializer([
            .sync("env") { _ in },
            .async("cache", optional: true) { _ in throw TestError(message: "disk full") },
            .onDemand(index, after: ["env"]) { _ in
                await order.record("index")
                return "index"
            },
            .onDemand(search, after: ["index"]) { _ in
                await order.record("search")
                return "search"
            },
            .onDemand(broken, after: ["cache"]) { _ in "never" },
            .onDemand(report, after: ["broken"]) { _ in "never" },
        ]).run()

        #expect(try await search.value() == "search")
        #expect(await order.entries == ["index", "search"])
        #expect(index.hasValue)

        let failed = try await #require(throws: OnDemandStepError.self) { try await broken.value() }
        #expect(failed.code == .prerequisiteFailed)
        #expect(failed.prerequisite == "cache")
        #expect("\(failed)".contains("'cache', did not finish: it failed"))
        let chained = try await #require(throws: OnDemandStepError.self) { try await report.value() }
        #expect(chained.code == .prerequisiteFailed)
        #expect(chained.prerequisite == "broken")
    }

    @Test("Asked for before any run is ready, or after its run failed: not ready")
    func notReady() async throws {
        let value = OnDemand<Int>("value")
        let initializer = try initializer([
            .sync("env") { process in process.containerError = TestError(message: "no container") },
            .onDemand(value) { _ in 1 },
        ])
        let early = try await #require(throws: OnDemandStepError.self) { try await value.value() }
        #expect(early.code == .notReady)
        #expect(early.step.id == "value")

        await #expect(throws: InitializationFailure<TestProcess>.self) { try await initializer.run() }
        let afterFailure = try await #require(throws: OnDemandStepError.self) { try await value.value() }
        #expect(afterFailure.code == .notReady)
    }

    @Test("A step after ready can ask for an on-demand step's value")
    func laterStepAsks() async throws {
        let value = OnDemand<String>("value")
        let result = try await initializer([
            .sync("env") { _ in },
            .onDemand(value) { _ in "made" },
            .async("warm", schedule: .afterReady) { process in
                let made = try await value.value()
                await process.append("warm with \(made)")
            },
        ]).run()
        let report = await result.waitForLaterSteps()
        #expect(report.steps.map(\.outcome) == [.finished, .finished])
        #expect(result.process.log == ["warm with made"])
    }

    @Test("An attempt past its timeout is abandoned and fails the request, on the run's clock")
    func timeout() async throws {
        let clock = ManualClock()
        let slow = OnDemand<Int>("slow")
        _ = try await initializer(
            [
                .sync("env") { _ in },
                .onDemand(slow, title: "Load slowly", timeout: .seconds(2)) { _ in
                    try await suspendUntilCancelled()
                    return 1
                },
            ], clock: InitializationClock(clock)
        ).run()

        let request = Task { @MainActor in try await slow.value() }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(2))
        let error = try await #require(throws: OnDemandStepError.self) { try await request.value }
        #expect(error.code == .failed)
        #expect(error.underlyingError is InitializationStepTimeoutError)
    }

    @Test("A repeat keeps a finished simple step's value and runs a repeatable one again")
    func repeats() async throws {
        let simpleRuns = StepGate()
        let repeatableRuns = StepGate()
        let settings = OnDemand<String>("settings")
        let session = OnDemand<String>("session")
        let first = try await initializer([
            .sync("env", type: .repeatable) { _ in },
            .onDemand(settings) { _ in
                await simpleRuns.pass()
                return "settings"
            },
            .onDemand(session, type: .repeatable) { process in
                await repeatableRuns.pass()
                return "session of \(process.environment)"
            },
        ]).run()
        _ = try await settings.value()
        _ = try await session.value()

        let second = try await first.runRepeat(createProcess: { _ in TestProcess(environment: "staging") })
        #expect(settings.hasValue)
        #expect(!session.hasValue)
        #expect(try await settings.value() == "settings")
        #expect(try await session.value() == "session of staging")
        #expect(await simpleRuns.runs == 1)
        #expect(await repeatableRuns.runs == 2)
        #expect(second.onDemandSteps.map(\.step.id) == ["session"])
    }

    @Test("A repeat runs a simple step again when a step it waits for ran again, and cancels one that runs")
    func repeatsAfterPrerequisites() async throws {
        let gate = StepGate()
        let profile = OnDemand<String>("profile")
        let avatar = OnDemand<String>("avatar")
        let first = try await initializer([
            .sync("env", type: .repeatable) { _ in },
            .sync("fonts") { _ in },
            .onDemand(profile, after: ["env"]) { process in
                await gate.pass()
                return "profile in \(process.environment)"
            },
            .onDemand(avatar, after: ["fonts", "profile"]) { _ in "avatar" },
        ]).run()
        _ = try await avatar.value()
        #expect(await gate.runs == 1)

        // Not through runRepeat, which cancels first: the new run's ready cancels what still runs.
        let blocked = StepGate(open: false)
        let slow = OnDemand<Int>("slow")
        let held = try await initializer([
            .sync("env", type: .repeatable) { _ in },
            .onDemand(slow) { _ in
                await blocked.pass()
                try Task.checkCancellation()
                return 1
            },
        ]).run()
        slow.waitersChanged = { testChanges.notify() }
        let request = Task { @MainActor in try await slow.value() }
        #expect(await waitUntil { slow.waitingRequests == 1 })
        _ = try await held.repeatInitializer().run()
        let error = try await #require(throws: OnDemandStepError.self) { try await request.value }
        #expect(error.code == .cancelled)
        await blocked.open()

        _ = try await first.runRepeat(createProcess: { _ in TestProcess(environment: "staging") })
        // env ran again: profile, which waits for it, and avatar, which waits for profile, too.
        #expect(!profile.hasValue && !avatar.hasValue)
        #expect(try await avatar.value() == "avatar")
        #expect(try await profile.value() == "profile in staging")
        #expect(await gate.runs == 2)
    }

    @Test("A repeat with nothing repeatable is refused, on-demand steps or not; a failed run's steps say so")
    func nothingToRepeat() async throws {
        let value = OnDemand<Int>("value")
        let result = try await initializer([.sync("env") { _ in }, .onDemand(value) { _ in 1 }]).run()
        let refused = try #require(throws: InitializationConfigurationError.self) {
            try result.repeatInitializer()
        }
        #expect(refused.code == .noRepeatableSteps)
        #expect(try await value.value() == 1)

        let failing = try initializer([
            .sync("env", type: .repeatable) { process in process.containerError = TestError(message: "no container") },
            .onDemand(value) { _ in 2 },
        ])
        await #expect(throws: InitializationFailure<TestProcess>.self) { try await failing.run() }
        #expect(!value.hasValue)
        let error = try await #require(throws: OnDemandStepError.self) { try await value.value() }
        #expect(error.code == .notReady)
        #expect("\(error)".contains("its run failed after it was ready (its container could not be built)"))
    }

    @Test("On the continuous clock, the step it waited for is the one that held it")
    func heldByOnTheContinuousClock() async throws {
        let index = OnDemand<Int>("index")
        let search = OnDemand<Int>("search")
        let result = try await initializer([
            .sync("env") { _ in },
            .onDemand(index, after: ["env"]) { _ in
                try await Task.sleep(for: .milliseconds(5))
                return 1
            },
            .onDemand(search, after: ["env", "index"]) { _ in 2 },
        ]).run()
        #expect(try await search.value() == 2)
        let timings = Dictionary(uniqueKeysWithValues: result.onDemandSteps.map { ($0.step.id, $0) })
        #expect(timings["index"]?.heldBy == nil)
        #expect(timings["search"]?.heldBy == "index")
        #expect(timings["search"].map { $0.startOffset >= timings["index"]!.endOffset } == true)
    }

    @Test("Of prerequisites that ended at the same moment, the one that waited for the other held it, as in a graph")
    func heldByOnATie() async throws {
        let config = OnDemand<Int>("config")
        let client = OnDemand<Int>("client")
        let fetch = OnDemand<Int>("fetch")
        // The clock never moves: every step ends at the same moment.
        let result = try await initializer(
            [
                .sync("env") { _ in },
                .onDemand(config) { _ in 1 },
                .onDemand(client, after: ["config"]) { _ in 2 },
                .onDemand(fetch, after: ["client", "config"]) { _ in 3 },
            ], clock: InitializationClock(ManualClock())
        ).run()
        #expect(try await fetch.value() == 3)
        let timings = Dictionary(uniqueKeysWithValues: result.onDemandSteps.map { ($0.step.id, $0) })
        #expect(timings["client"]?.heldBy == "config")
        #expect(timings["fetch"]?.heldBy == "client")
    }

    @Test("Cancelling the later steps cancels an on-demand step that runs; the next request runs it afresh")
    func cancelled() async throws {
        let gate = StepGate(open: false)
        let value = OnDemand<Int>("value")
        let result = try await initializer([
            .sync("env") { _ in },
            .onDemand(value) { _ in
                await gate.pass()
                try Task.checkCancellation()
                return 7
            },
        ]).run()

        value.waitersChanged = { testChanges.notify() }
        let request = Task { @MainActor in try await value.value() }
        await gate.waitForRuns(1)
        result.cancelLaterSteps()
        let error = try await #require(throws: OnDemandStepError.self) { try await request.value }
        #expect(error.code == .cancelled)
        // At once, while the cancelled run still waits at the gate: a fresh run.
        let again = Task { @MainActor in try await value.value() }
        await gate.waitForRuns(2)
        await gate.open()
        #expect(try await again.value == 7)
        #expect(await gate.runs == 2)
        #expect(result.onDemandSteps.contains { $0.outcome == .finished })
    }

    @Test("A cancelled request stops waiting; the step goes on for the others")
    func cancelledRequest() async throws {
        let (value, gate) = try await gated(returning: 9)
        let leaving = Task { @MainActor in try await value.value() }
        let staying = Task { @MainActor in try await value.value() }
        #expect(await waitUntil { value.waitingRequests == 2 })
        leaving.cancel()
        let error = try await #require(throws: OnDemandStepError.self) { try await leaving.value }
        #expect(error.code == .cancelled)
        await gate.open()
        #expect(try await staying.value == 9)
        #expect(await gate.runs == 1)
    }

    @Test("A graph that cannot hold on-demand steps is refused, saying how to fix it")
    func configurationErrors() throws {
        let value = OnDemand<Int>("value")
        let waits = try #require(throws: InitializationConfigurationError.self) {
            try initializer([.onDemand(value) { _ in 1 }, .sync("env", after: ["value"]) { _ in }])
        }
        #expect(waits.code == .waitsForOnDemandStep)
        #expect(waits.steps == ["env", "value"])
        #expect("\(waits)".contains("ask for 'value''s value inside 'env' instead"))

        let later = try #require(throws: InitializationConfigurationError.self) {
            try initializer([
                .sync("env") { _ in }, .sync("warm", schedule: .afterReady) { _ in },
                .onDemand(value, after: ["warm"]) { _ in 1 },
            ])
        }
        #expect(later.code == .onDemandStepAfterLaterStep)
        #expect(later.steps == ["value", "warm"])
    }
}
