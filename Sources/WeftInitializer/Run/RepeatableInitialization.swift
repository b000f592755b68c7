/// The outcome of a run — an ``InitializationResult`` or an ``InitializationFailure`` — from
/// which a repeat run starts: an error screen retries exactly as a main screen switches
/// environment.
@MainActor
public protocol RepeatableInitialization {
    associatedtype Process: DependencyInitializationProcess
    /// The initializer that made this run; a repeat keeps its steps and callbacks.
    var initializer: DependencyInitializer<Process> { get }
    /// This run's process, complete or partly built, handed to a repeat's `createProcess`.
    var process: Process { get }
}

extension InitializationResult: RepeatableInitialization {}
extension InitializationFailure: RepeatableInitialization {}

extension RepeatableInitialization {
    /// Makes the initializer of a repeat run without starting it, so a user interface can
    /// read its DependencyInitializer/plan and subscribe to its
    /// DependencyInitializer/events() first.
    ///
    /// A repeat run executes only the steps marked InitializationStepType/repeatable,
    /// in phase order, on a new process. Every argument left `nil` keeps this run's value.
    ///
    /// Simple steps do not run again, so whatever they put into the process is gone unless
    /// `createProcess` carries it over from the previous process:
    /// ```swift
    /// try failure.repeatInitializer(createProcess: { previous in
    ///     let process = AppProcess(environment: .staging)
    ///     process.database = previous.database   // opened by a simple step
    ///     return process
    /// })
    /// ```
    /// - Parameters:
    ///   - createProcess: Makes the new process from the previous one (the environment
    ///     switch). `nil` keeps this run's carry-over if it had one, or else calls the
    ///     original `createProcess`.
    ///   - preSyncSteps: Replacement pre-sync steps; only their repeatable ones run.
    ///   - asyncSteps: Replacement async steps; only their repeatable ones run.
    ///   - postSyncSteps: Replacement post-sync steps; only their repeatable ones run.
    ///   - onStart: Replacement start callback.
    ///   - onStartStep: Replacement step-start callback.
    ///   - onSuccessStep: Replacement step-success callback.
    ///   - onSuccess: Replacement success callback.
    ///   - onError: Replacement error callback.
    /// - Throws: InitializationConfigurationError when no step is repeatable.
    public func repeatInitializer(
        createProcess: (@MainActor @Sendable (_ previous: Process) -> Process)? = nil,
        preSyncSteps: [SyncInitializationStep<Process>]? = nil,
        asyncSteps: [AsyncInitializationStep<Process>]? = nil,
        postSyncSteps: [SyncInitializationStep<Process>]? = nil,
        onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)? = nil,
        onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)? = nil,
        onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)? = nil,
        onSuccess: (@MainActor @Sendable (InitializationResult<Process>, Duration) -> Void)? = nil,
        onError: (
            @MainActor @Sendable (InitializationFailure<Process>, Process, InitializationStepInfo, Duration) -> Void
        )? = nil
    ) throws(InitializationConfigurationError) -> DependencyInitializer<Process> {
        try initializer.repeatInitializer(
            after: process,
            createProcess: createProcess,
            preSyncSteps: preSyncSteps,
            asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps,
            onStart: onStart,
            onStartStep: onStartStep,
            onSuccessStep: onSuccessStep,
            onSuccess: onSuccess,
            onError: onError
        )
    }

    /// Starts a repeat run of the repeatable steps and reports through the callbacks.
    ///
    /// See `repeatInitializer(createProcess:...)` for the arguments; `nil` keeps this
    /// run's value. In an async context Swift prefers the async overload; use
    /// `repeatInitializer(...).start()` there. Cancel the returned task to cancel the run.
    /// - Throws: InitializationConfigurationError when no step is repeatable.
    @discardableResult
    public func runRepeat(
        createProcess: (@MainActor @Sendable (_ previous: Process) -> Process)? = nil,
        preSyncSteps: [SyncInitializationStep<Process>]? = nil,
        asyncSteps: [AsyncInitializationStep<Process>]? = nil,
        postSyncSteps: [SyncInitializationStep<Process>]? = nil,
        onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)? = nil,
        onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)? = nil,
        onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)? = nil,
        onSuccess: (@MainActor @Sendable (InitializationResult<Process>, Duration) -> Void)? = nil,
        onError: (
            @MainActor @Sendable (InitializationFailure<Process>, Process, InitializationStepInfo, Duration) -> Void
        )? = nil
    ) throws(InitializationConfigurationError) -> Task<Void, Never> {
        try repeatInitializer(
            createProcess: createProcess, preSyncSteps: preSyncSteps, asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps, onStart: onStart, onStartStep: onStartStep,
            onSuccessStep: onSuccessStep, onSuccess: onSuccess, onError: onError
        ).start()
    }

    /// Runs the repeatable steps again and returns the new result.
    ///
    /// See `repeatInitializer(createProcess:...)` for the arguments; `nil` keeps this
    /// run's value. The callbacks are called as well.
    /// - Throws: InitializationConfigurationError when no step is repeatable, or
    ///   InitializationFailure when the repeat run fails.
    public func runRepeat(
        createProcess: (@MainActor @Sendable (_ previous: Process) -> Process)? = nil,
        preSyncSteps: [SyncInitializationStep<Process>]? = nil,
        asyncSteps: [AsyncInitializationStep<Process>]? = nil,
        postSyncSteps: [SyncInitializationStep<Process>]? = nil,
        onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)? = nil,
        onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)? = nil,
        onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)? = nil,
        onSuccess: (@MainActor @Sendable (InitializationResult<Process>, Duration) -> Void)? = nil,
        onError: (
            @MainActor @Sendable (InitializationFailure<Process>, Process, InitializationStepInfo, Duration) -> Void
        )? = nil
    ) async throws -> InitializationResult<Process> {
        try await repeatInitializer(
            createProcess: createProcess, preSyncSteps: preSyncSteps, asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps, onStart: onStart, onStartStep: onStartStep,
            onSuccessStep: onSuccessStep, onSuccess: onSuccess, onError: onError
        ).run()
    }
}
