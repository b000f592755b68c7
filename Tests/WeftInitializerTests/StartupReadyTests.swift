import CoreMetrics
import MetricsTestKit
import Testing

@testable import WeftInitializer

/// An async graph step that takes `milliseconds` on `clock`, then logs its id; it throws
/// instead when `failing`.
private func timed(
    _ id: String, _ milliseconds: Int, after: [String] = [], schedule: InitializationSchedule = .beforeReady,
    failing: Bool = false, on clock: ManualClock
) -> InitializationStep<TestProcess> {
    .async(id, after: after, schedule: schedule) { process in
        try await clock.sleep(for: .milliseconds(milliseconds))
        if failing { throw TestError(message: "\(id) failed") }
        await process.append(id)
    }
}

/// Every event of a run, rendered short: `ready`, `begin id`, `end id`, `fail id`,
/// `cancel id`, `skip id`, `finished`, `failed id`.
@MainActor
private final class EventLog {
    private(set) var lines: [String] = [] {
        didSet { testChanges.notify() }
    }

    /// Whether the run's last event, `finished` or `failed …`, has arrived (`false` after 60 s).
    func waitForTheEnd() async -> Bool {
        await waitUntil { lines.last == "finished" || lines.last?.hasPrefix("failed") == true }
    }

    init(_ events: AsyncStream<InitializationEvent>) {
        Task { @MainActor in
            for await event in events {
                switch event {
                case .ready: lines.append("ready")
                case .stepStarted(let step): lines.append("begin \(step.id)")
                case .stepFinished(let timing): lines.append("end \(timing.step.id)")
                case .stepFailed(let timing, _): lines.append("fail \(timing.step.id)")
                case .stepCancelled(let timing): lines.append("cancel \(timing.step.id)")
                case .stepSkipped(let timing): lines.append("skip \(timing.step.id)")
                case .finished: lines.append("finished")
                case .failed(let step, _, _): lines.append("failed \(step.id)")
                default: break
                }
            }
        }
    }
}

@MainActor
/// env 10 ms → fact 30 ms, needed for ready; warm 50 ms after env and index 20 ms after warm,
/// after ready.
private func readyGraph(
    on clock: ManualClock, warmFails: Bool = false, deadline: Duration? = nil
) throws -> DependencyInitializer<TestProcess> {
    try DependencyInitializer(
        createProcess: { TestProcess() },
        steps: [
            timed("env", 10, on: clock),
            timed("fact", 30, after: ["env"], on: clock),
            timed("warm", 50, after: ["env"], schedule: .afterReady, failing: warmFails, on: clock),
            timed("index", 20, after: ["warm"], schedule: .afterReady, on: clock),
        ],
        clock: InitializationClock(clock), deadline: deadline)
}

@MainActor
@Suite("Ready first, the rest after", .timeLimit(.minutes(1)))
struct StartupReadyTests {
    /// Waits until `sleepers` tasks sleep on `clock` and `ended` steps ended, then moves the
    /// clock to `time` ms.
    private func step(
        _ clock: ManualClock, _ ends: StepEnds, sleepers: Int, ended: Int, to time: Int
    ) async -> Bool {
        let settled = await waitUntil { clock.sleeperCount == sleepers && ends.count == ended }
        #expect(settled, "before \(time) ms: \(clock.sleeperCount) asleep, \(ends.count) ended")
        if settled { clock.advance(to: .milliseconds(time)) }
        return settled
    }

    @Test("run() returns at ready; steps after ready start then, however early their prerequisites finished")
    func readyFirst() async throws {
        let clock = ManualClock()
        let initializer = try readyGraph(on: clock)
        let events = EventLog(initializer.events())
        let ends = StepEnds(initializer.events())
        let run = Task { try await initializer.run() }
        guard await step(clock, ends, sleepers: 1, ended: 0, to: 10) else { return run.cancel() }
        // env ended at 10: fact runs, warm (whose prerequisite is env) waits for ready.
        guard await step(clock, ends, sleepers: 1, ended: 1, to: 40) else { return run.cancel() }
        let result = try await run.value

        #expect(result.report.ready == .milliseconds(40))
        #expect(result.elapsed == .milliseconds(40))
        #expect(result.report.steps.map(\.step.id) == ["env", "fact"])
        #expect(result.hasLaterStepsRunning)
        #expect(result.container.log == ["env", "fact"])

        guard await step(clock, ends, sleepers: 1, ended: 2, to: 90) else { return result.cancelLaterSteps() }
        guard await step(clock, ends, sleepers: 1, ended: 3, to: 110) else { return result.cancelLaterSteps() }
        let report = await result.waitForLaterSteps()
        #expect(!result.hasLaterStepsRunning)
        #expect(report.ready == .milliseconds(40))
        #expect(report.elapsed == .milliseconds(110))
        #expect(report.steps.map(\.step.id) == ["env", "fact", "warm", "index"])
        #expect(report.stepsAfterReady.map(\.step.id) == ["warm", "index"])
        let warm = try #require(report.steps.first { $0.step.id == "warm" })
        #expect(warm.startOffset == .milliseconds(40))
        #expect(warm.step.schedule == .afterReady)
        #expect(!report.isDegraded)
        #expect(result.process.log == ["env", "fact", "warm", "index"])
        #expect(report.traceEventJSON().contains(#""name":"ready","ph":"i""#))
        #expect(await events.waitForTheEnd())

        #expect(
            events.lines == [
                "begin env", "end env", "begin fact", "end fact", "ready", "begin warm", "end warm", "begin index",
                "end index", "finished",
            ])
    }

    @Test("A step after ready that fails fails nothing: its dependents are skipped, the run degraded")
    func laterFailure() async throws {
        let clock = ManualClock()
        let initializer = try readyGraph(on: clock, warmFails: true)
        let events = EventLog(initializer.events())
        let ends = StepEnds(initializer.events())
        let run = Task { try await initializer.run() }
        guard await step(clock, ends, sleepers: 1, ended: 0, to: 10) else { return run.cancel() }
        guard await step(clock, ends, sleepers: 1, ended: 1, to: 40) else { return run.cancel() }
        let result = try await run.value
        #expect(!result.isDegraded)
        guard await step(clock, ends, sleepers: 1, ended: 2, to: 90) else { return result.cancelLaterSteps() }
        let report = await result.waitForLaterSteps()
        #expect(report.steps.map(\.outcome) == [.finished, .finished, .failed, .skipped])
        #expect(report.isDegraded)
        #expect(await events.waitForTheEnd())
        #expect(events.lines.suffix(4) == ["begin warm", "fail warm", "skip index", "finished"])
        #expect(!events.lines.contains { $0.hasPrefix("failed") })
    }

    @Test("Cancelling the task that waits for the later steps cancels them; they read cancelled")
    func cancelWhileWaiting() async throws {
        let clock = ManualClock()
        let initializer = try readyGraph(on: clock)
        let ends = StepEnds(initializer.events())
        let run = Task { try await initializer.run() }
        guard await step(clock, ends, sleepers: 1, ended: 0, to: 10) else { return run.cancel() }
        guard await step(clock, ends, sleepers: 1, ended: 1, to: 40) else { return run.cancel() }
        let result = try await run.value
        #expect(await clock.waitForSleepers(1))  // warm is going
        let waiting = Task { await result.waitForLaterSteps() }
        waiting.cancel()
        let report = await waiting.value
        #expect(report.steps.map(\.step.id) == ["env", "fact", "warm"])
        #expect(report.steps.last?.outcome == .cancelled)
        #expect(report.ready == .milliseconds(40))
        #expect(!result.hasLaterStepsRunning)
    }

    @Test("The run's deadline bounds ready: steps after ready may run past it")
    func deadlineBoundsReady() async throws {
        let clock = ManualClock()
        let initializer = try readyGraph(on: clock, deadline: .milliseconds(50))
        let ends = StepEnds(initializer.events())
        let run = Task { try await initializer.run() }
        // The deadline's timer sleeps beside each step until ready.
        guard await step(clock, ends, sleepers: 2, ended: 0, to: 10) else { return run.cancel() }
        guard await step(clock, ends, sleepers: 2, ended: 1, to: 40) else { return run.cancel() }
        let result = try await run.value
        guard await step(clock, ends, sleepers: 1, ended: 2, to: 90) else { return result.cancelLaterSteps() }
        guard await step(clock, ends, sleepers: 1, ended: 3, to: 110) else { return result.cancelLaterSteps() }
        let report = await result.waitForLaterSteps()
        #expect(report.steps.allSatisfy { $0.outcome == .finished })
        #expect(report.missedDeadline == nil)
        #expect(report.elapsed == .milliseconds(110))
    }

    @Test("A run without steps after ready is ready when it finishes, and says so")
    func readyIsTheEnd() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [.sync("a") { $0.append("a") }, .sync("b", after: ["a"]) { $0.append("b") }])
        let events = EventLog(initializer.events())
        let result = try await initializer.run()
        #expect(result.report.ready == result.report.elapsed)
        #expect(!result.hasLaterStepsRunning)
        #expect(await result.waitForLaterSteps().steps.count == 2)
        #expect(await events.waitForTheEnd())
        #expect(events.lines == ["begin a", "end a", "begin b", "end b", "ready", "finished"])
    }

    @Test("A step needed for ready may not wait for a step after ready: the error names both and the fix")
    func readyAfterLater() {
        #expect {
            try DependencyInitializer(
                createProcess: { TestProcess() },
                steps: [
                    .sync("warm", schedule: .afterReady) { _ in },
                    .sync("screen", after: ["warm"]) { _ in },
                ])
        } throws: { error in
            guard let error = error as? InitializationConfigurationError else { return false }
            return error.code == .readyStepAfterLaterStep && error.steps == ["screen", "warm"]
                && error.description.contains("mark 'screen' `schedule: .afterReady` too")
        }
    }

    @Test("weft_startup_ready_seconds holds the time to ready; the run's duration, the whole run")
    func readyMetric() async throws {
        let clock = ManualClock()
        let metrics = TestMetrics()
        let report = try await withMetricsFactory(metrics) {
            let initializer = try readyGraph(on: clock)
            let ends = StepEnds(initializer.events())
            let run = Task { try await initializer.run() }
            for (sleepers, ended, time) in [(1, 0, 10), (1, 1, 40)] {
                guard await step(clock, ends, sleepers: sleepers, ended: ended, to: time) else {
                    run.cancel()
                    throw CancellationError()
                }
            }
            let result = try await run.value
            for (sleepers, ended, time) in [(1, 2, 90), (1, 3, 110)] {
                guard await step(clock, ends, sleepers: sleepers, ended: ended, to: time) else {
                    result.cancelLaterSteps()
                    throw CancellationError()
                }
            }
            return await result.waitForLaterSteps()
        }
        let ready = try metrics.expectTimer("weft_startup_ready_seconds", [])
        #expect(ready.values == [40_000_000])
        let settled = await waitUntil {
            (try? metrics.expectTimer("weft_startup_duration_seconds", [("outcome", "succeeded")])) != nil
        }
        #expect(settled)
        let total = try metrics.expectTimer("weft_startup_duration_seconds", [("outcome", "succeeded")])
        #expect(report.elapsed == .milliseconds(110))
        #expect(total.values == [110_000_000])
    }
}
