/// When a step ran, relative to the start of its run, and how it ended.
///
/// Parallel steps overlap: their `startOffset ..< startOffset + duration` ranges intersect.
/// The duration of a step that was abandoned ends when the run ended.
public struct InitializationStepTiming: Sendable, Hashable {
    /// How a step ended. Later releases may add outcomes: a `switch` needs a `default`.
    public enum Outcome: Sendable, Hashable {
        /// The step finished without error.
        case finished
        /// The step threw the error that ended the run.
        case failed
        /// The step was still running when the run ended (another step failed or timed out,
        /// or the run was cancelled); it was cancelled and abandoned.
        case cancelled
    }

    /// The step.
    public let step: InitializationStepInfo
    /// The time from the start of the run to the start of the step.
    public let startOffset: Duration
    /// How long the step ran.
    public let duration: Duration
    /// How the step ended.
    public let outcome: Outcome

    init(step: InitializationStepInfo, startOffset: Duration, duration: Duration, outcome: Outcome) {
        self.step = step
        self.startOffset = startOffset
        self.duration = duration
        self.outcome = outcome
    }
}
