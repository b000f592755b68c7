import CoreMetrics
import WeftPrimitives

/// How a start-up run ended, as its metrics label it (`outcome`).
enum RunOutcome: String {
    case succeeded, degraded, failed, cancelled
}

/// A run's metrics, recorded through swift-metrics once the run has ended: nothing on the
/// steps' path, and nothing at all while no metrics backend is bootstrapped (neither with
/// `MetricsSystem.bootstrap` nor bound to the task with `withMetricsFactory`).
///
/// Named as Prometheus names them (a timer in seconds, a counter's `_total`):
///
/// | metric | kind | dimensions |
/// |---|---|---|
/// | `weft_startup_step_duration_seconds` | timer | `step` (its id), `outcome` |
///
/// An on-demand step records its step series each time it runs, when it ends, through the
/// factory its run had.
/// | `weft_startup_step_attempts_total` | counter | `step` |
/// | `weft_startup_step_retries_total` | counter | `step` |
/// | `weft_startup_duration_seconds` | timer | `outcome`: `succeeded`, `degraded`, `failed`, `cancelled` |
/// | `weft_startup_ready_seconds` | timer | none: recorded when a run gets ready |
/// | `weft_startup_runs_total` | counter | `outcome` |
enum RunMetrics {
    /// The observer that records a run's metrics into the factory bootstrapped or bound to the
    /// task now; `nil` when that is the no-op one.
    @MainActor
    static func observer() -> RunMetricsObserver? {
        let factory = MetricsSystem.factory
        guard !(factory is NOOPMetricsHandler) else { return nil }
        return RunMetricsObserver(factory: factory)
    }

    /// Records the time a run took to get ready, when it does.
    static func recordReady(_ ready: Duration, into factory: any MetricsFactory) {
        Timer(label: "weft_startup_ready_seconds", dimensions: [], factory: factory)
            .recordNanoseconds(ready.saturatingNanoseconds)
    }

    static func record(_ report: InitializationReport, outcome: RunOutcome, into factory: any MetricsFactory) {
        for timing in report.steps { record(timing, into: factory) }
        let dimensions = [("outcome", outcome.rawValue)]
        Timer(label: "weft_startup_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(report.elapsed.saturatingNanoseconds)
        Counter(label: "weft_startup_runs_total", dimensions: dimensions, factory: factory).increment()
    }

    /// Records one step's duration by outcome, its attempts and its retries.
    static func record(_ timing: InitializationStepTiming, into factory: any MetricsFactory) {
        guard !(factory is NOOPMetricsHandler) else { return }
        let step = ("step", timing.step.id)
        Timer(
            label: "weft_startup_step_duration_seconds",
            dimensions: [step, ("outcome", timing.outcome.description)],
            factory: factory
        ).recordNanoseconds(timing.duration.saturatingNanoseconds)
        let attempts = timing.attempts
        guard attempts > 0 else { return }
        Counter(label: "weft_startup_step_attempts_total", dimensions: [step], factory: factory).increment(
            by: attempts)
        if attempts > 1 {
            Counter(label: "weft_startup_step_retries_total", dimensions: [step], factory: factory)
                .increment(by: attempts - 1)
        }
    }
}

/// A run's metrics, recorded when it gets ready and when it ends (``RunMetrics``).
@MainActor
final class RunMetricsObserver: RunObserver {
    private let factory: any MetricsFactory

    init(factory: any MetricsFactory) { self.factory = factory }

    /// A step's series are recorded from the report, once the run ended.
    var observesSteps: Bool { false }

    /// At the moment the run gets ready, as its `ready` event is sent (a container that then
    /// fails to build fails the run, which got ready all the same).
    func ready(at offset: Duration) { RunMetrics.recordReady(offset, into: factory) }

    func ended(_ end: RunEnd) {
        let outcome: RunOutcome =
            switch end {
            case .finished(let report): report.isDegraded ? .degraded : .succeeded
            case .failed(_, _, _, let isCancellation): isCancellation ? .cancelled : .failed
            }
        RunMetrics.record(end.report, outcome: outcome, into: factory)
    }
}
