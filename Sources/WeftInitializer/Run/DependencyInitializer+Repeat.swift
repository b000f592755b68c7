extension DependencyInitializer {
    /// Makes the initializer of a repeat run that follows a run which used `previous`.
    func repeatInitializer(
        after previous: Process,
        createProcess: (@MainActor @Sendable (_ previous: Process) -> Process)?,
        preSyncSteps: [SyncInitializationStep<Process>]?,
        asyncSteps: [AsyncInitializationStep<Process>]?,
        postSyncSteps: [SyncInitializationStep<Process>]?,
        onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)?,
        onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)?,
        onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)?,
        onSuccess: (@MainActor @Sendable (InitializationResult<Process>, Duration) -> Void)?,
        onError: (@MainActor @Sendable (InitializationFailure<Process>, Process, InitializationStepInfo, Duration) -> Void)?
    ) throws(InitializationConfigurationError) -> DependencyInitializer<Process> {
        let repeated = InitializationSteps(
            preSync: preSyncSteps ?? steps.preSync,
            async: asyncSteps ?? steps.async,
            postSync: postSyncSteps ?? steps.postSync
        ).repeatable
        guard !repeated.isEmpty else { throw InitializationConfigurationError(code: .noRepeatableSteps) }
        return DependencyInitializer(
            steps: repeated,
            createFresh: createFresh,
            carryOver: createProcess ?? carryOver,
            previousProcess: previous,
            callbacks: InitializationCallbacks(
                onStart: onStart ?? callbacks.onStart,
                onStartStep: onStartStep ?? callbacks.onStartStep,
                onSuccessStep: onSuccessStep ?? callbacks.onSuccessStep,
                onSuccess: onSuccess ?? callbacks.onSuccess,
                onError: onError ?? callbacks.onError
            )
        )
    }
}
