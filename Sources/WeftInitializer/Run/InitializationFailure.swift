/// Why a run failed: the error, the step that threw it, the partly built process, the
/// elapsed time and the timeline up to the failure. Also the way to retry with
/// `runRepeat`.
///
/// Its description reads
/// `Step 'Open the history database' (async phase) failed after 12 ms: <underlying error>`.
public struct InitializationFailure<Process: DependencyInitializationProcess>: Error, CustomStringConvertible {
    /// The error the failed step threw (``InitializationStepTimeoutError`` for a timeout,
    /// `CancellationError` when the run was cancelled).
    public let error: any Error
    /// The process as far as it was filled when the run ended.
    public let process: Process
    /// The step that failed (phase ``InitializationPhase/container`` when
    /// ``DependencyInitializationProcess/toContainer`` threw, or the run was cancelled after
    /// its last step).
    public let failedStep: InitializationStepInfo
    /// The time from the start of the run to the failure.
    public let elapsed: Duration
    /// Start offset, duration and outcome of every step that started, in completion order.
    public let stepTimings: [InitializationStepTiming]
    /// Every step's timing in plan order, and the critical chain and blame list up to the
    /// failure.
    public let report: InitializationReport
    /// The initializer whose run failed.
    public let initializer: DependencyInitializer<Process>

    /// Whether the run ended because it was cancelled.
    public var isCancellation: Bool { error is CancellationError }

    /// `Step 'Title' (async phase) failed after 12 ms: <underlying error>`.
    public var description: String {
        "Step '\(failedStep.title)' (\(failedStep.phase) phase) failed after \(elapsed.milliseconds) ms: \(error)"
    }
}
