import WeftPrimitives

/// Why a run with a deadline failed: the deadline passed while steps were still going.
///
/// The run's ``InitializationFailure/error`` is this, and its
/// ``InitializationFailure/failedStep`` the step that held the start-up up: the one still
/// going that started first. Every step still running or waiting out a retry delay was
/// cancelled and abandoned, and reads ``InitializationStepTiming/Outcome/cancelled``.
///
/// ```swift
/// let initializer = try DependencyInitializer(
///     createProcess: { AppProcess() }, steps: steps, deadline: .seconds(30))
/// // Start-up did not finish within its 30.0 s deadline: 'Fetch the first cat fact' was
/// // still going after 29.9 s (attempt 3).
/// ```
public struct InitializationDeadlineExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// A step still going when the deadline passed.
    public struct PendingStep: Sendable, Hashable, CustomStringConvertible {
        /// The step.
        public let step: InitializationStepInfo
        /// How long it had been going when the deadline passed, from its first attempt's start.
        public let goingFor: Duration
        /// How many attempts had started: the one running when the deadline passed, or, for a
        /// step waiting out a retry delay, the attempts that ran before it.
        public let attempt: Int
        /// Whether the step was waiting out a retry delay, between two attempts, rather than
        /// running one.
        public let isWaitingToRetry: Bool

        init(step: InitializationStepInfo, goingFor: Duration, attempt: Int, isWaitingToRetry: Bool = false) {
            self.step = step
            self.goingFor = goingFor
            self.attempt = attempt
            self.isWaitingToRetry = isWaitingToRetry
        }

        /// As the deadline's message names it: `'Fetch the first cat fact' was still going after
        /// 29.9 s (attempt 3)`, or `… (waiting to retry after 2 attempts)`.
        public var description: String {
            let attempts =
                isWaitingToRetry
                ? " (waiting to retry after \(attempt) attempt\(attempt == 1 ? "" : "s"))"
                : attempt > 1 ? " (attempt \(attempt))" : ""
            return "'\(step.title)' was still going after \(goingFor.secondsText)\(attempts)"
        }
    }

    /// The run's deadline, from its start.
    public let deadline: Duration
    /// The steps still running or waiting out a retry delay when it passed, the one that started
    /// first first; with none, the steps that were going when it passed and ended after it
    /// (synchronous steps, which run to their end); empty when it passed between two steps.
    public let pending: [PendingStep]
    /// The step that was about to start when the deadline passed with nothing going, if any.
    public let nextStep: InitializationStepInfo?

    public var description: String {
        let limit = "Start-up did not finish within its \(deadline.secondsText) deadline"
        guard !pending.isEmpty else {
            return limit + (nextStep.map { ": it passed before step '\($0.title)' started." } ?? ".")
        }
        return limit + ": " + pending.map(\.description).joined(separator: "; ") + "."
    }
}
