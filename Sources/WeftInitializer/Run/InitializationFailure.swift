import WeftPrimitives

/// Why a run failed: the error, the step that threw it, the partly built process, the
/// elapsed time and the timeline up to the failure. Also the way to retry with
/// `runRepeat`.
///
/// Its description reads
/// `Step 'Open the history database' (async phase) failed after 12 ms: <underlying error>`,
/// or for a cancelled run
/// `Start-up was cancelled after 12 ms, during steps 'Fetch a fact' and 'Open the history' (async phase)`.
public struct InitializationFailure<Process: DependencyInitializationProcess>: Error, CustomStringConvertible {
    /// The error the failed step threw (``InitializationStepTimeoutError`` for a timeout), or
    /// `CancellationError` when the run was cancelled.
    public let error: any Error
    /// The process as far as it was filled when the run ended.
    public let process: Process
    /// The step that failed: the required step whose failure the run saw first (phase
    /// ``InitializationPhase/container`` when ``DependencyInitializationProcess/toContainer``
    /// threw).
    ///
    /// For a cancelled run, the step the run was in, which did not fail: the first, in plan
    /// order, of the steps the cancellation cancelled (``InitializationReport/cancelledSteps``);
    /// with none running, the step the run was about to start; the container phase when every
    /// step had ended.
    public let failedStep: InitializationStepInfo
    /// Whether the run was cancelled; stored, so that a step that throws `CancellationError`
    /// of its own accord fails the run as any error does.
    private let wasCancelled: Bool
    /// The time from the start of the run to the failure.
    public let elapsed: Duration
    /// Start offset, duration and outcome of every step that started, in completion order.
    public let stepTimings: [InitializationStepTiming]
    /// Every step's timing in plan order, and the critical chain and blame list up to the
    /// failure.
    public let report: InitializationReport
    /// The initializer whose run failed.
    public let initializer: DependencyInitializer<Process>

    init(
        error: any Error, process: Process, failedStep: InitializationStepInfo, isCancellation: Bool,
        elapsed: Duration, stepTimings: [InitializationStepTiming], report: InitializationReport,
        initializer: DependencyInitializer<Process>
    ) {
        self.error = error
        self.process = process
        self.failedStep = failedStep
        self.wasCancelled = isCancellation
        self.elapsed = elapsed
        self.stepTimings = stepTimings
        self.report = report
        self.initializer = initializer
    }

    /// Whether the run ended because it was cancelled: ``error`` is then a `CancellationError`,
    /// and no step reads failed because of it — every step still running or waiting out a
    /// retry delay reads ``InitializationStepTiming/Outcome/cancelled``.
    public var isCancellation: Bool { wasCancelled }

    /// `Step 'Title' (async phase) failed after 12 ms: <underlying error>`; for a cancelled run
    /// `Start-up was cancelled after 12 ms, during step 'Title' (async phase)`, or
    /// `…, before step 'Title' (graph phase) started`, or
    /// `…, after its last step and before the container was built`.
    public var description: String {
        let step = "'\(failedStep.title)' (\(failedStep.phase) phase)"
        guard wasCancelled else { return "Step \(step) failed after \(elapsed.roundedMilliseconds) ms: \(error)" }
        let cancelled = "Start-up was cancelled after \(elapsed.roundedMilliseconds) ms"
        guard failedStep.phase != .container else {
            return cancelled + ", after its last step and before the container was built"
        }
        let steps = report.cancelledSteps.map { "'\($0.title)'" }
        guard let last = steps.last, report.cancelledSteps.contains(failedStep) else {
            return cancelled + ", before step \(step) started"
        }
        let during = steps.count == 1 ? "step \(last)" : "steps \(steps.dropLast().joined(separator: ", ")) and \(last)"
        return cancelled + ", during \(during) (\(failedStep.phase) phase)"
    }
}
