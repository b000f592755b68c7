/// An initializer cannot run as asked: it has no steps, its graph is malformed, a repeat has
/// nothing to repeat, or it is already running. Thrown before any step runs.
public struct InitializationConfigurationError: Error, Hashable, CustomStringConvertible {
    /// What is wrong. New codes may be added: compare with `==`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case noSteps, noRepeatableSteps, alreadyRunning, duplicateStepID, missingPrerequisite, cycle, invalidRetry,
                readyStepAfterLaterStep, onDemandStepAfterLaterStep, waitsForOnDemandStep
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// The initializer was given no step.
        public static let noSteps = Code(.noSteps)
        /// A repeat run was requested but no step is marked `.repeatable`.
        public static let noRepeatableSteps = Code(.noRepeatableSteps)
        /// The initializer was started while a run of it is still in progress.
        public static let alreadyRunning = Code(.alreadyRunning)
        /// Two steps have the same id; ``InitializationConfigurationError/steps`` names it.
        public static let duplicateStepID = Code(.duplicateStepID)
        /// A step names a prerequisite that no step has; ``InitializationConfigurationError/steps``
        /// holds the step, then the missing id.
        public static let missingPrerequisite = Code(.missingPrerequisite)
        /// Steps wait for each other in a circle; ``InitializationConfigurationError/steps``
        /// holds the circle, its first id repeated at the end.
        public static let cycle = Code(.cycle)
        /// A step's retry policy is out of range; ``InitializationConfigurationError/steps``
        /// names the step.
        public static let invalidRetry = Code(.invalidRetry)
        /// A step needed for ready waits for a step that runs after ready;
        /// ``InitializationConfigurationError/steps`` holds the step, then the later one.
        public static let readyStepAfterLaterStep = Code(.readyStepAfterLaterStep)
        /// An on-demand step waits for a step that runs after ready;
        /// ``InitializationConfigurationError/steps`` holds the step, then the later one.
        public static let onDemandStepAfterLaterStep = Code(.onDemandStepAfterLaterStep)
        /// A step the run starts waits for an on-demand step, which the run never starts;
        /// ``InitializationConfigurationError/steps`` holds the step, then the on-demand one.
        public static let waitsForOnDemandStep = Code(.waitsForOnDemandStep)
    }

    /// What is wrong.
    public let code: Code
    /// The ids of the steps concerned, when the error is about particular steps.
    public let steps: [String]
    /// More about the problem, when there is more to say.
    let detail: String?

    init(code: Code, steps: [String] = [], detail: String? = nil) {
        self.code = code
        self.steps = steps
        self.detail = detail
    }

    /// Says what went wrong and how to fix it.
    public var description: String {
        let quoted = steps.map { "'\($0)'" }
        switch code {
        case .noSteps:
            return "The initializer has no steps: give it at least one step."
        case .noRepeatableSteps:
            return "Nothing to repeat: no step is marked .repeatable. Create the steps that must run again "
                + "with `type: .repeatable`, or pass replacement step lists that contain repeatable steps."
        case .alreadyRunning:
            return "The initializer is already running: wait for its run to end (or cancel it) before starting it "
                + "again, or make another initializer for a run of its own."
        case .duplicateStepID:
            return "Two steps have the id \(quoted.joined()): give each step an id of its own."
        case .missingPrerequisite:
            let step = quoted.first ?? "?"
            let missing = quoted.dropFirst().first ?? "?"
            return "Step \(step) runs after \(missing), but no step has that id."
                + (detail.map { " Did you mean '\($0)'?" } ?? "") + " Add the step, or fix the id in its `after:` list."
        case .cycle:
            return "Steps wait for each other in a circle: \(quoted.joined(separator: " → ")). "
                + "Remove one of these prerequisites."
        case .readyStepAfterLaterStep:
            let step = quoted.first ?? "?"
            let later = quoted.dropFirst().first ?? "?"
            return "Step \(step) is needed for ready but runs after \(later), which runs after ready: mark \(step) "
                + "`schedule: .afterReady` too, or \(later) `schedule: .beforeReady`."
        case .onDemandStepAfterLaterStep:
            let step = quoted.first ?? "?"
            let later = quoted.dropFirst().first ?? "?"
            return "On-demand step \(step) waits for \(later), which runs after ready: an on-demand step may wait "
                + "only for steps needed for ready and for other on-demand steps. Mark \(later) `schedule: .beforeReady`, "
                + "or make it on demand too."
        case .waitsForOnDemandStep:
            let step = quoted.first ?? "?"
            let onDemand = quoted.dropFirst().first ?? "?"
            return "Step \(step) waits for \(onDemand), which runs only on demand, so it would never start: "
                + "ask for \(onDemand)'s value inside \(step) instead, or make \(step) on demand too."
        case .invalidRetry:
            return "Step \(quoted.first ?? "?") has a retry policy that cannot be used: \(detail ?? "out of range")."
        default:
            return "The initializer cannot run (\(code))."
        }
    }
}
