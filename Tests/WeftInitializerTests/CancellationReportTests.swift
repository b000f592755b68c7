import Foundation
import Testing
import WeftInitializer

/// How each step of a run ended, then how the run did, from its events: `finish:id`,
/// `fail:id`, `cancel:id`, `skip:id`, then `failed:id` or `finished`.
private func ends(_ events: AsyncStream<InitializationEvent>) async -> [String] {
    var ends: [String] = []
    for await event in events {
        switch event {
        case .stepFinished(let timing): ends.append("finish:\(timing.step.id)")
        case .stepFailed(let timing, _): ends.append("fail:\(timing.step.id)")
        case .stepCancelled(let timing): ends.append("cancel:\(timing.step.id)")
        case .stepSkipped(let timing): ends.append("skip:\(timing.step.id)")
        case .failed(let step, _, _): ends.append("failed:\(step.id)")
        case .finished: ends.append("finished")
        default: break
        }
    }
    return ends
}

/// An async graph step that arrives at `started`, then waits until it is cancelled.
private func blocked(_ id: String, after: [String] = [], started: Barrier) -> InitializationStep<TestProcess> {
    .async(id, after: after) { _ in
        await started.arrive()
        try await suspendUntilCancelled()
    }
}

/// The run's failure, which `run` must throw.
private func failure(
    of run: Task<InitializationResult<TestProcess>, any Error>
) async throws -> InitializationFailure<TestProcess> {
    try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
}

@MainActor
@Suite("Cancellation reported as it happened", .timeLimit(.minutes(1)))
struct CancellationReportTests {
    @Test("a graph cancelled while two async steps run: both read cancelled, and no step failed")
    func twoRunningSteps() async throws {
        let started = Barrier(count: 3)
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                blocked("p", started: started), blocked("q", started: started),
                .sync("after", after: ["p", "q"]) { process in process.append("after") },
            ])
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        await started.arrive()
        run.cancel()
        let failure = try await failure(of: run)
        #expect(await ends(events) == ["cancel:p", "cancel:q", "failed:p"])
        #expect(failure.isCancellation && failure.error is CancellationError)
        #expect(failure.failedStep.id == "p")
        #expect(failure.report.steps.map(\.step.id) == ["p", "q"])
        #expect(failure.report.steps.map(\.outcome) == [.cancelled, .cancelled])
        // Cancelled together, at the moment the run was cancelled.
        #expect(Set(failure.report.steps.map(\.endOffset)).count == 1)
        #expect(
            "\(failure)"
                == "Start-up was cancelled after \(failure.elapsed.wholeMilliseconds) ms, during steps 'p' and 'q' (graph phase)"
        )
    }

    @Test("a graph cancelled while a step waits out a retry delay: it reads cancelled, after its failed attempt")
    func stepInRetryDelay() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async(
                    "r", title: "Reach the server", retry: .exponential(attempts: 3, baseDelay: .seconds(10), jitter: 0)
                ) { _ in
                    throw TestError(message: "down")
                }
            ],
            clock: InitializationClock(clock))
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        #expect(await clock.waitForSleepers(1))
        #expect(clock.deadlines == [.seconds(10)])
        clock.advance(to: .seconds(2))
        run.cancel()
        let failure = try await failure(of: run)
        #expect(await ends(events) == ["cancel:r", "failed:r"])
        #expect(failure.isCancellation && failure.failedStep.id == "r")
        let step = try #require(failure.report.steps.first)
        #expect(step.outcome == .cancelled && step.attempts == 1)
        #expect(step.startOffset == .zero && step.duration == .seconds(2))
        #expect(failure.elapsed == .seconds(2))
        #expect("\(failure)" == "Start-up was cancelled after 2000 ms, during step 'Reach the server' (graph phase)")
        // The trace shows the attempt that failed; the step itself was cancelled.
        let json = failure.report.traceEventJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let attempts = try #require(object["traceEvents"] as? [[String: Any]]).filter { $0["ph"] as? String == "X" }
        let args = attempts.compactMap { $0["args"] as? [String: Any] }
        #expect(args.map { $0["outcome"] as? String } == ["failed"])
        #expect(args.map { $0["stepOutcome"] as? String } == ["cancelled"])
        #expect(await clock.waitForSleepers(0))
    }

    @Test("three phases cancelled while two async steps are blocked: both read cancelled, post-sync never starts")
    func phasesWithTwoBlockedSteps() async throws {
        let started = Barrier(count: 3)
        let blocked = { (title: String) in
            AsyncInitializationStep<TestProcess>(title: title) { _ in
                await started.arrive()
                try await suspendUntilCancelled()
            }
        }
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("pre")],
            asyncSteps: [blocked("first"), blocked("second")],
            postSyncSteps: [logStep("post")])
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        await started.arrive()
        run.cancel()
        let failure = try await failure(of: run)
        #expect(
            await ends(events) == ["finish:pre-sync.1", "cancel:async.1", "cancel:async.2", "failed:async.1"])
        #expect(failure.isCancellation && failure.failedStep.id == "async.1" && failure.failedStep.phase == .async)
        #expect(failure.report.steps.map(\.outcome) == [.finished, .cancelled, .cancelled])
        #expect(failure.process.log == ["pre"])
        #expect(
            "\(failure)"
                == "Start-up was cancelled after \(failure.elapsed.wholeMilliseconds) ms, during steps 'first' and 'second' (async phase)"
        )
    }

    @Test("a step whose attempt fails once the run is cancelled reads cancelled, not failed")
    func failureAfterCancellation() async throws {
        let box = RunBox()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .sync("first") { _ in },
                .sync("cancels", title: "Cancel, then throw", after: ["first"]) { _ in
                    box.task?.cancel()
                    throw TestError(message: "after the cancellation")
                },
            ])
        let events = initializer.events()
        let run = Task { try await initializer.run() }
        box.task = run
        let failure = try await failure(of: run)
        #expect(await ends(events) == ["finish:first", "cancel:cancels", "failed:cancels"])
        #expect(failure.isCancellation && failure.error is CancellationError && failure.failedStep.id == "cancels")
        #expect(failure.report.cancelledSteps.map(\.id) == ["cancels"])
        #expect("\(failure)".hasSuffix(" ms, during step 'Cancel, then throw' (graph phase)"))
    }

    @Test("a step that throws CancellationError of its own accord fails the run: that is no cancellation of the run")
    func ownCancellationError() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() }, steps: [.async("gives up") { _ in throw CancellationError() }])
        let events = initializer.events()
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) {
            try await initializer.run()
        }
        #expect(await ends(events) == ["fail:gives up", "failed:gives up"])
        #expect(!failure.isCancellation && failure.error is CancellationError)
        #expect(failure.report.steps.map(\.outcome) == [.failed] && failure.report.cancelledSteps.isEmpty)
        #expect("\(failure)".hasPrefix("Step 'gives up' (graph phase) failed after "))
    }

    @Test("cancelledSteps lists what a failure cancelled, in plan order; a run that succeeds cancels none")
    func cancelledSteps() async throws {
        let started = Barrier(count: 3)
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                blocked("a", started: started),
                .async("boom") { _ in
                    await started.arrive()
                    throw TestError(message: "boom")
                },
                blocked("b", started: started),
            ])
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) {
            try await initializer.run()
        }
        #expect(!failure.isCancellation && failure.failedStep.id == "boom")
        #expect(failure.report.cancelledSteps.map(\.id) == ["a", "b"])
        let result = try await DependencyInitializer(createProcess: { TestProcess() }, steps: [.sync("a") { _ in }])
            .run()
        #expect(result.report.cancelledSteps.isEmpty)
    }
}

/// The run whose task a step cancels, set before the run starts.
@MainActor
private final class RunBox {
    var task: Task<InitializationResult<TestProcess>, any Error>?
}
