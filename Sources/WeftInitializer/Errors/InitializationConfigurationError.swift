/// An initializer cannot run as asked: it has no steps, a repeat has nothing to repeat, or
/// it is already running.
public struct InitializationConfigurationError: Error, Hashable, CustomStringConvertible {
    /// What is wrong. New codes may be added: compare with `==`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable { case noSteps, noRepeatableSteps, alreadyRunning }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// All three step lists are empty.
        public static let noSteps = Code(.noSteps)
        /// A repeat run was requested but no step is marked `.repeatable`.
        public static let noRepeatableSteps = Code(.noRepeatableSteps)
        /// The initializer was started while a run of it is still in progress.
        public static let alreadyRunning = Code(.alreadyRunning)
    }

    /// What is wrong.
    public let code: Code

    init(code: Code) {
        self.code = code
    }

    /// Says what went wrong and how to fix it.
    public var description: String {
        switch code {
        case .noSteps:
            "The initializer has no steps: pass at least one step in preSyncSteps, asyncSteps or postSyncSteps."
        case .noRepeatableSteps:
            "Nothing to repeat: no step is marked .repeatable. Create the steps that must run again "
                + "with `type: .repeatable`, or pass replacement step lists that contain repeatable steps."
        case .alreadyRunning:
            "The initializer is already running: wait for its run to end (or cancel it) before starting it "
                + "again, or make another initializer for a run of its own."
        default:
            "The initializer cannot run (\(code))."
        }
    }
}
