/// When a step ran, relative to the start of its run, and how it ended.
///
/// Parallel steps overlap: their `startOffset ..< startOffset + duration` ranges intersect.
public struct InitializationStepTiming: Sendable, Hashable {
    /// How a step ended.
    public enum Outcome: Sendable, Hashable {
        /// The step finished without error.
        case finished
        /// The step threw the error that ended the run.
        case failed
        /// The step was cancelled (or failed on its own) after another step ended the run.
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

    /// Creates a timing record.
    public init(step: InitializationStepInfo, startOffset: Duration, duration: Duration, outcome: Outcome) {
        self.step = step
        self.startOffset = startOffset
        self.duration = duration
        self.outcome = outcome
    }

    /// The time from the start of the run to the end of the step.
    public var endOffset: Duration { startOffset + duration }
}
