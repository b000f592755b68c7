import FactKit
import WeftApp
import WeftInitializer
import WeftTerminal

/// The error screen's state: what failed, in a person's words, and the failure to retry from.
struct ErrorState: Sendable {
    /// The failed run, to retry from and to diagnose; `nil` when no run could even be made.
    var failure: InitializationFailure<AppProcess>?
    /// The environment that failed to initialize.
    var environment: String
    /// The failed step's title.
    var stepTitle: String
    /// The failed step's phase, such as `async`.
    var phase: String
    /// The error message.
    var message: String
    /// What to try next (``FailureAdvice/hint(for:environment:phrasing:)``, keys named as ``KeyMap`` binds them).
    var hint: String
    /// Time from the start of the run to the failure.
    var elapsed: Duration
    /// Which attempt at this environment failed: 1, then 2, 3, … for retries.
    var attempt = 1
    /// The start-up's deadline when it passed (`InitializationDeadlineExceeded`): the screen
    /// then says the start-up ran out of time, and the step is the one that held it up.
    var deadline: Duration?

    /// The state describing `failure`.
    @MainActor
    init(failure: InitializationFailure<AppProcess>, environment: String) {
        self.failure = failure
        self.environment = failure.process.environment?.name ?? environment
        self.stepTitle = failure.failedStep.title
        self.phase = failure.failedStep.kindLabel
        self.message = String(describing: FailureAdvice.rootCause(of: failure.error))
        self.hint = FailureAdvice.hint(for: failure.error, environment: failure.process.environment, phrasing: .keys)
        self.elapsed = failure.elapsed
        self.deadline = (FailureAdvice.rootCause(of: failure.error) as? InitializationDeadlineExceeded)?.deadline
    }

    /// The state for an error that stopped a run from being made at all.
    init(error: any Error, environment: String) {
        self.failure = nil
        self.environment = environment
        self.stepTitle = "Prepare initialization"
        self.phase = "setup"
        self.message = String(describing: FailureAdvice.rootCause(of: error))
        self.hint = FailureAdvice.hint(for: error, environment: nil, phrasing: .keys)
        self.elapsed = .zero
    }
}
