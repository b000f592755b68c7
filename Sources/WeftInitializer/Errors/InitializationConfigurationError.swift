/// An initializer was configured so that it cannot run.
public struct InitializationConfigurationError: Error, Hashable, CustomStringConvertible {
    /// What is wrong with the configuration.
    public enum Code: Sendable, Hashable {
        /// All three step lists are empty.
        case noSteps
        /// A repeat run was requested but no step is marked `.repeatable`.
        case noRepeatableSteps
    }

    /// What is wrong with the configuration.
    public let code: Code

    /// Creates a configuration error.
    public init(code: Code) {
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
        }
    }
}
