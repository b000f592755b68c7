import Testing
import WeftInitializer

/// An async graph step that sleeps `milliseconds` on `clock`.
private func timed(
    _ id: String, _ milliseconds: Int, type: InitializationStepType = .simple, after: [String] = [],
    on clock: ManualClock
) -> InitializationStep<TestProcess> {
    .async(id, type: type, after: after) { _ in try await clock.sleep(for: .milliseconds(milliseconds)) }
}

/// A sync graph step that does nothing, and so ends the moment it starts.
private func instant(_ id: String, after: [String] = []) -> InitializationStep<TestProcess> {
    .sync(id, after: after) { _ in }
}

/// Counts calls from any task.
private actor Calls {
    private(set) var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}

/// The run whose task a step cancels, set before the run starts.
@MainActor
private final class RunBox {
    var task: Task<InitializationResult<TestProcess>, any Error>?
}

@MainActor
@Suite("Start-up graph: what the documentation decides", .timeLimit(.minutes(1)))
struct StartupGraphDecisionTests {
    /// Runs `steps` on `clock`, advancing it by `milliseconds` once `sleepers` steps sleep on it.
    private func run(
        _ steps: [InitializationStep<TestProcess>], clock: ManualClock, sleepers: Int, advance milliseconds: Int
    ) async throws -> InitializationResult<TestProcess> {
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() }, steps: steps, clock: InitializationClock(clock))
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(sleepers))
        clock.advance(by: .milliseconds(milliseconds))
        return try await run.value
    }

    // MARK: Ties

    @Test("heldBy, when prerequisites end at the same moment: the one named last, unless another of them waited for it")
    func heldByTies() async throws {
        let clock = ManualClock()
        let result = try await run(
            [
                timed("x", 10, on: clock), timed("y", 10, on: clock),
                instant("xy", after: ["x", "y"]), instant("yx", after: ["y", "x"]),
                // b starts when x ends and ends at once: it ended after x, at the same moment.
                instant("b", after: ["x"]), instant("c", after: ["b", "x"]),
            ], clock: clock, sleepers: 2, advance: 10)
        let heldBy = Dictionary(uniqueKeysWithValues: result.report.steps.map { ($0.step.id, $0.heldBy) })
        #expect(heldBy["xy"] == "y" && heldBy["yx"] == "x")
        #expect(heldBy["c"] == "b")
        #expect(result.report.steps.allSatisfy { $0.endOffset == .milliseconds(10) })
    }

    @Test("the step that ended last, when ends tie: one no other of them waited for, the last such in the plan")
    func criticalChainTies() async throws {
        let clock = ManualClock()
        // assemble is listed first but runs after fetch, ending the moment fetch does.
        let chained = try await run(
            [instant("assemble", after: ["fetch"]), timed("fetch", 10, on: clock)], clock: clock, sleepers: 1,
            advance: 10)
        #expect(chained.report.criticalChain.map(\.step.id) == ["fetch", "assemble"])

        let apart = ManualClock()
        let parallel = try await run(
            [timed("x", 10, on: apart), timed("y", 10, on: apart)], clock: apart, sleepers: 2, advance: 10)
        #expect(parallel.report.criticalChain.map(\.step.id) == ["y"])
    }

    // MARK: Which step the failure names

    @Test(
        "of several steps that fail, the failure names the first whose failure the run saw; the others read cancelled")
    func severalFailures() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("late") { _ in
                    try await clock.sleep(for: .milliseconds(20))
                    throw TestError(message: "late")
                },
                .async("early") { _ in
                    try await clock.sleep(for: .milliseconds(10))
                    throw TestError(message: "early")
                },
            ],
            clock: InitializationClock(clock))
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(2))
        clock.advance(to: .milliseconds(10))
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        #expect(failure.failedStep.id == "early" && "\(failure.error)" == "early" && !failure.isCancellation)
        #expect(failure.report.steps.map(\.outcome) == [.cancelled, .failed])
        var ends: [String] = []
        for await event in events {
            if case .stepFailed(let timing, _) = event { ends.append("fail:\(timing.step.id)") }
            if case .stepCancelled(let timing) = event { ends.append("cancel:\(timing.step.id)") }
        }
        #expect(ends == ["fail:early", "cancel:late"])
        #expect("\(failure)" == "Step 'early' (graph phase) failed after 10 ms: early")
    }

    @Test("a run cancelled during its last step, an async one: that step reads cancelled, and the failure names it")
    func cancelledDuringLastAsyncStep() async throws {
        let started = Gate()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                instant("first"),
                .async("last", after: ["first"]) { _ in
                    await started.open()
                    try await suspendUntilCancelled()
                },
            ])
        let run = Task { try await initializer.run() }
        await started.wait()
        run.cancel()
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        #expect(failure.isCancellation && failure.failedStep.id == "last")
        #expect(failure.report.steps.map(\.outcome) == [.finished, .cancelled])
        #expect("\(failure)".hasPrefix("Start-up was cancelled after "))
        #expect("\(failure)".hasSuffix(" ms, during step 'last' (graph phase)"))
    }

    @Test(
        "a run cancelled during its last step, a sync one: the step finishes, and the run is cancelled before the container"
    )
    func cancelledDuringLastSyncStep() async throws {
        let box = RunBox()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .sync("last", title: "Last step") { process in
                    box.task?.cancel()
                    process.append("last")
                }
            ])
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        box.task = run
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        #expect(failure.isCancellation)
        #expect(failure.failedStep.phase == .container && failure.failedStep.id == "container")
        #expect(failure.report.steps.map(\.outcome) == [.finished])
        #expect(failure.process.log == ["last"])
        var ends: [String] = []
        for await event in events {
            if case .stepFinished(let timing) = event { ends.append("finish:\(timing.step.id)") }
            if case .failed(let step, _, _) = event { ends.append("failed:\(step.id)") }
        }
        #expect(ends == ["finish:last", "failed:container"])
        #expect(
            "\(failure)"
                == "Start-up was cancelled after \(failure.elapsed.wholeMilliseconds) ms, after its last step and before the container was built"
        )
    }

    @Test("a graph cancelled before it starts: the failure names the step it was about to start")
    func cancelledBeforeFirstStep() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() }, steps: [instant("first"), instant("second", after: ["first"])])
        let run = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await initializer.run()
        }
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        #expect(failure.isCancellation && failure.failedStep.id == "first" && failure.report.steps.isEmpty)
        #expect(
            "\(failure)"
                == "Start-up was cancelled after \(failure.elapsed.wholeMilliseconds) ms, before step 'first' (graph phase) started"
        )
    }

    // MARK: Repeats and configuration

    @Test(
        "a repeat keeps the initializer's clock: its retry delay sleeps on it, and its offsets count from its own start"
    )
    func repeatKeepsClock() async throws {
        let clock = ManualClock()
        let calls = Calls()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async(
                    "fact", type: .repeatable,
                    retry: .exponential(attempts: 2, baseDelay: .milliseconds(50), jitter: 0)
                ) { _ in
                    // The first run's attempt succeeds; the repeat's first attempt fails.
                    if await calls.next() == 2 { throw TestError(message: "flaky") }
                }
            ],
            clock: InitializationClock(clock))
        let first = try await initializer.run()
        clock.advance(to: .seconds(1))
        let again = Task { try await first.runRepeat() }
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [.milliseconds(1_050)])
        clock.advance(by: .milliseconds(50))
        let repeated = try await again.value
        let fact = try #require(repeated.report.steps.first)
        #expect(fact.attempts == 2 && fact.startOffset == .zero && fact.duration == .milliseconds(50))
        #expect(repeated.elapsed == .milliseconds(50))
    }

    @Test("a circle's list starts with its step given first, each step followed by the one it waits for")
    func cycleStart() {
        #expect {
            _ = try DependencyInitializer(
                createProcess: { TestProcess() },
                steps: [
                    instant("x", after: ["b"]), instant("a", after: ["c"]), instant("b", after: ["a"]),
                    instant("c", after: ["b"]),
                ])
        } throws: { error in
            (error as? InitializationConfigurationError)?.steps == ["a", "c", "b", "a"]
        }
    }

    // MARK: Describing a retry policy

    @Test("any retry policy can be described, and its delays computed, without a trap: NaN, infinite, negative, huge")
    func describingAnyRetry() {
        let base = "3 attempts, 100 ms doubling to 10000 ms, "
        let jitters: [(Double, String)] = [
            (0.2, "20% jitter"), (.nan, "nan% jitter"), (.infinity, "inf% jitter"), (-.infinity, "-inf% jitter"),
            (-0.5, "-50% jitter"), (1e16, "1e+18% jitter"), (.greatestFiniteMagnitude, "inf% jitter"),
        ]
        for (jitter, text) in jitters {
            let policy = InitializationRetry.exponential(attempts: 3, jitter: jitter)
            #expect(policy.description == base + text)
            for attempt in [1, 2, 3, 1_000] {
                let delay = policy.delay(before: attempt, random: 0.5)
                #expect(delay >= .zero && delay <= .seconds(10), "jitter \(jitter), attempt \(attempt)")
            }
        }
        let huge = Duration.seconds(Int64.max) * 10
        let extremes: [(InitializationRetry, String)] = [
            (
                .exponential(attempts: .max, baseDelay: .seconds(Int64.max), maxDelay: huge, jitter: 0),
                "9223372036854775807 attempts, 9223372036854775807 ms doubling to 9223372036854775807 ms, 0% jitter"
            ),
            (
                .exponential(attempts: 2, baseDelay: .seconds(Int64.min), maxDelay: .milliseconds(-1_500), jitter: 1),
                "2 attempts, -9223372036854775808 ms doubling to -1500 ms, 100% jitter"
            ),
            (.exponential(attempts: .min), "no retry"),
        ]
        for (policy, text) in extremes {
            #expect(policy.description == text)
            for random in [0, 0.5, 1, .nan, -.infinity, .infinity] {
                _ = policy.delay(before: 1_000, random: random)
            }
        }
    }
}
