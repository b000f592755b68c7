/// Why an on-demand step's value could not be had: the step failed, a step it waits for did not
/// finish, it was cancelled, or it was demanded before its run was ready.
///
/// Thrown by ``OnDemand/value()``. A container that resolves the value through the handle wraps
/// it in its own resolve error, so the failure reads where the value was needed and names the step.
public struct OnDemandStepError: Error, CustomStringConvertible {
    /// What went wrong. New codes may be added: compare with `==`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case notReady, failed, prerequisiteFailed, cancelled
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// No run of the step's initializer has reached ready, so nothing can run the step yet; or
        /// the run that did failed after all (its container could not be built).
        public static let notReady = Code(.notReady)
        /// The step's last attempt failed (or timed out); ``OnDemandStepError/underlyingError``
        /// holds its error.
        public static let failed = Code(.failed)
        /// A step it waits for did not finish; ``OnDemandStepError/prerequisite`` names it.
        public static let prerequisiteFailed = Code(.prerequisiteFailed)
        /// The step was cancelled while it ran (the run was repeated, or its later steps were
        /// cancelled), or the task that asked for the value was.
        public static let cancelled = Code(.cancelled)
    }

    /// What went wrong.
    public let code: Code
    /// The on-demand step.
    public let step: InitializationStepInfo
    /// What the step's last attempt threw, for ``Code/failed``; or the prerequisite's own error,
    /// for an on-demand prerequisite that failed.
    public let underlyingError: (any Error)?
    /// How many attempts the step made in this demand.
    public let attempts: Int
    /// The id of the prerequisite that did not finish, for ``Code/prerequisiteFailed``.
    public let prerequisite: String?
    /// For ``Code/notReady``: the run was ready, then failed (its container could not be built).
    let runFailed: Bool

    init(
        _ code: Code, step: InitializationStepInfo, underlyingError: (any Error)? = nil, attempts: Int = 0,
        prerequisite: String? = nil, runFailed: Bool = false
    ) {
        self.runFailed = runFailed
        self.code = code
        self.step = step
        self.underlyingError = underlyingError
        self.attempts = attempts
        self.prerequisite = prerequisite
    }

    /// Says which step, what went wrong and how to fix it.
    public var description: String {
        let name = "On-demand step '\(step.id)'" + (step.title == step.id ? "" : " (\(step.title))")
        switch code {
        case .notReady where runFailed:
            return "\(name) was asked for its value, but its run failed after it was ready (its container could "
                + "not be built), so nothing runs the step: start the initializer again, and ask the new run."
        case .notReady:
            return "\(name) was asked for its value before its initializer's run was ready: ask once `run()` has "
                + "returned (or from a step after ready), and make sure the step is in that initializer's steps."
        case .failed:
            let tries = attempts == 1 ? "" : " after \(attempts) attempts"
            let advice =
                attempts > 1
                ? "The next request for its value runs it again."
                : "The next request for its value runs it again; give it `retry:` to try more than once per request."
            return "\(name) failed\(tries): \(underlyingError.map { "\($0)" } ?? "an error"). " + advice
        case .prerequisiteFailed:
            let cause = underlyingError.map { ": \($0)" } ?? ""
            return "\(name) cannot run: the step it waits for, '\(prerequisite ?? "?")', did not finish\(cause). "
                + "Fix that step, or stop waiting for it (`after:`)."
        case .cancelled:
            return "\(name) was cancelled before it finished: its run was repeated or its later steps were "
                + "cancelled, or the task that asked for its value was. Ask again for a fresh run of the step."
        default:
            return "\(name) has no value (\(code))."
        }
    }
}
