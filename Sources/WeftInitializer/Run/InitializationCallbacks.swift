/// The optional callbacks of an initializer, all called on the main actor.
struct InitializationCallbacks<Process: DependencyInitializationProcess>: Sendable {
    var onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)?
    var onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)?
    var onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)?
    var onSuccess: (@MainActor @Sendable (InitializationResult<Process>, Duration) -> Void)?
    var onError: (@MainActor @Sendable (InitializationFailure<Process>, Process, InitializationStepInfo, Duration) -> Void)?
}
