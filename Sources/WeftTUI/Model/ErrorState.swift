import FactKit
import WeftInitializer

/// The error screen's state: what failed, in a person's words, and the failure to retry from.
public struct ErrorState: Sendable {
    /// The failed run, to retry from and to diagnose; `nil` when no run could even be made.
    public var failure: InitializationFailure<AppProcess>?
    /// The environment that failed to initialize.
    public var environment: String
    /// The failed step's title.
    public var stepTitle: String
    /// The failed step's phase, such as `async`.
    public var phase: String
    /// The error message.
    public var message: String
    /// What to try next (``FailureAdvice/hint(for:environment:)``).
    public var hint: String
    /// Time from the start of the run to the failure.
    public var elapsed: Duration

    /// The state describing `failure`.
    @MainActor
    public init(failure: InitializationFailure<AppProcess>, environment: String) {
        self.failure = failure
        self.environment = failure.process.environment?.name ?? environment
        self.stepTitle = failure.failedStep.title
        self.phase = failure.failedStep.phase.description
        self.message = String(describing: FailureAdvice.rootCause(of: failure.error))
        self.hint = FailureAdvice.hint(for: failure.error, environment: failure.process.environment)
        self.elapsed = failure.elapsed
    }

    /// The state for an error that stopped a run from being made at all.
    public init(error: any Error, environment: String) {
        self.failure = nil
        self.environment = environment
        self.stepTitle = "Prepare initialization"
        self.phase = "setup"
        self.message = String(describing: FailureAdvice.rootCause(of: error))
        self.hint = FailureAdvice.hint(for: error, environment: nil)
        self.elapsed = .zero
    }
}
