/// The moments of a run an initializer reports, as optional closures called on the main
/// actor; pass them once, as `callbacks:`.
///
/// ```swift
/// let callbacks = InitializationCallbacks<AppProcess>(
///     onStartStep: { step in splash.markRunning(step) },
///     onSuccess: { result in show(result.container) },
///     onError: { failure in showError(failure) }
/// )
/// try DependencyInitializer(createProcess: { AppProcess() }, asyncSteps: asyncSteps, callbacks: callbacks).start()
/// ```
///
/// ``DependencyInitializer/events()`` reports the same moments, and more, as a stream.
public struct InitializationCallbacks<Process: DependencyInitializationProcess>: Sendable {
    let onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)?
    let onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)?
    let onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)?
    let onSuccess: (@MainActor @Sendable (InitializationResult<Process>) -> Void)?
    let onError: (@MainActor @Sendable (InitializationFailure<Process>) -> Void)?

    /// Creates a set of callbacks; leave out the ones you do not need.
    /// - Parameters:
    ///   - onStart: Called when a run starts, with its plan.
    ///   - onStartStep: Called when a step starts.
    ///   - onSuccessStep: Called when a step finishes without error, with its duration.
    ///   - onSuccess: Called once when the run succeeds.
    ///   - onError: Called once when the run fails; the failure holds the error, the failed
    ///     step, the partly built process and the elapsed time.
    public init(
        onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)? = nil,
        onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)? = nil,
        onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)? = nil,
        onSuccess: (@MainActor @Sendable (InitializationResult<Process>) -> Void)? = nil,
        onError: (@MainActor @Sendable (InitializationFailure<Process>) -> Void)? = nil
    ) {
        self.onStart = onStart
        self.onStartStep = onStartStep
        self.onSuccessStep = onSuccessStep
        self.onSuccess = onSuccess
        self.onError = onError
    }
}

/// The callbacks told of a run's moments as it goes: its start, and each step's start and
/// finish. (`onSuccess` and `onError` take the run's result, which its caller makes.)
@MainActor
final class StepCallbacks: RunObserver {
    private let onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)?
    private let onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)?
    private let onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)?
    private var plan: [InitializationStepInfo] = []

    /// The observer for `callbacks`; `nil` when it has none of these to call (decided before
    /// one is made: a failing class initializer would allocate first).
    static func observer<Process>(for callbacks: InitializationCallbacks<Process>) -> StepCallbacks? {
        guard callbacks.onStart != nil || callbacks.onStartStep != nil || callbacks.onSuccessStep != nil else {
            return nil
        }
        return StepCallbacks(callbacks)
    }

    private init<Process>(_ callbacks: InitializationCallbacks<Process>) {
        onStart = callbacks.onStart
        onStartStep = callbacks.onStartStep
        onSuccessStep = callbacks.onSuccessStep
    }

    var observesSteps: Bool { onStartStep != nil || onSuccessStep != nil }

    func started(_ plan: [InitializationStepInfo]) {
        self.plan = plan
        onStart?(plan)
    }

    func stepStarted(_ position: Int) { onStartStep?(plan[position]) }

    func stepEnded(_ end: StepEnd) {
        if end.outcome == .finished { onSuccessStep?(plan[end.position], end.duration) }
    }
}
