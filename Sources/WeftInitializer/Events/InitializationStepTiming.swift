/// When a step ran, relative to the start of its run, and how it ended.
///
/// Parallel steps overlap: their `startOffset ..< startOffset + duration` ranges intersect.
/// The duration of a step that was abandoned ends when the run ended; the duration of a step
/// tried more than once spans every attempt and the delays between them.
public struct InitializationStepTiming: Sendable, Hashable {
    /// How a step ended. Later releases may add outcomes: a `switch` needs a `default`.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// The step finished without error.
        case finished
        /// The step's last attempt threw. A required step's failure ends the run; an optional
        /// step's leaves it degraded.
        case failed
        /// The step was still running, or waiting out a retry delay, when the run ended
        /// (another step failed or timed out, or the run was cancelled); it was cancelled and
        /// abandoned.
        case cancelled
        /// The step did not run, because an optional step it needs failed or was skipped.
        case skipped

        /// `finished`, `failed`, `cancelled` or `skipped`.
        public var description: String {
            switch self {
            case .finished: "finished"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .skipped: "skipped"
            }
        }
    }

    /// One try of a step, relative to the start of the run.
    struct Attempt: Sendable, Hashable {
        let startOffset: Duration
        let duration: Duration
        let outcome: Outcome
    }

    /// The step.
    public let step: InitializationStepInfo
    /// The time from the start of the run to the start of the step's first attempt (to when it
    /// was skipped, for a skipped step).
    public let startOffset: Duration
    /// How long the step ran, from the start of its first attempt to the end of its last.
    public let duration: Duration
    /// How the step ended.
    public let outcome: Outcome
    /// How many attempts the step started; 0 for a skipped step.
    public var attempts: Int { recordedAttempts?.count ?? (outcome == .skipped ? 0 : 1) }
    /// The id of the prerequisite that finished last, the one the step waited for; `nil` for
    /// a step that needed none (in this run). A step after ready whose prerequisites finished
    /// before the run was ready waited for ready: this is then the step needed for ready that
    /// ended last, so that the critical chain runs through ready without a gap.
    public let heldBy: String?
    /// Every attempt, when they are not just the one the timing itself describes (which is
    /// most steps', and which then costs no allocation).
    private let recordedAttempts: [Attempt]?

    /// Every attempt, in order.
    var attemptTimings: [Attempt] {
        recordedAttempts
            ?? (outcome == .skipped ? [] : [Attempt(startOffset: startOffset, duration: duration, outcome: outcome)])
    }

    /// The time from the start of the run to the end of the step.
    public var endOffset: Duration { startOffset + duration }

    init(
        step: InitializationStepInfo,
        startOffset: Duration,
        duration: Duration,
        outcome: Outcome,
        heldBy: String? = nil,
        attempts: [Attempt]? = nil
    ) {
        self.step = step
        self.startOffset = startOffset
        self.duration = duration
        self.outcome = outcome
        self.heldBy = heldBy
        let single = Attempt(startOffset: startOffset, duration: duration, outcome: outcome)
        if let attempts, attempts != (outcome == .skipped ? [] : [single]) {
            recordedAttempts = attempts
        } else {
            recordedAttempts = nil
        }
    }
}
