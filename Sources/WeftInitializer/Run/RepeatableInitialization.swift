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
    /// read its ``DependencyInitializer/plan`` and subscribe to its
    /// ``DependencyInitializer/events()`` first.
    ///
    /// A repeat run executes only the steps marked ``InitializationStepType/repeatable``,
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
    ///   - callbacks: Replacement callbacks.
    /// - Throws: ``InitializationConfigurationError`` when no step is repeatable.
    public func repeatInitializer(
        createProcess: (@MainActor @Sendable (_ previous: Process) -> Process)? = nil,
        preSyncSteps: [SyncInitializationStep<Process>]? = nil,
        asyncSteps: [AsyncInitializationStep<Process>]? = nil,
        postSyncSteps: [SyncInitializationStep<Process>]? = nil,
        callbacks: InitializationCallbacks<Process>? = nil
    ) throws(InitializationConfigurationError) -> DependencyInitializer<Process> {
        let repeated = InitializationSteps(
            preSync: preSyncSteps ?? initializer.steps.preSync,
            async: asyncSteps ?? initializer.steps.async,
            postSync: postSyncSteps ?? initializer.steps.postSync
        ).repeatable
        guard !repeated.isEmpty else { throw InitializationConfigurationError(code: .noRepeatableSteps) }
        return DependencyInitializer(
            steps: repeated,
            createFresh: initializer.createFresh,
            carryOver: createProcess ?? initializer.carryOver,
            previousProcess: process,
            callbacks: callbacks ?? initializer.callbacks,
            tracer: initializer.tracer
        )
    }

    /// Runs the repeatable steps again and returns the new result; the callbacks are called
    /// as well.
    ///
    /// The arguments are those of
    /// ``repeatInitializer(createProcess:preSyncSteps:asyncSteps:postSyncSteps:callbacks:)``;
    /// `nil` keeps this run's value. From synchronous code, call
    /// `repeatInitializer(…).start()`.
    /// - Throws: ``InitializationConfigurationError`` when no step is repeatable, or
    ///   ``InitializationFailure`` when the repeat run fails.
    public func runRepeat(
        createProcess: (@MainActor @Sendable (_ previous: Process) -> Process)? = nil,
        preSyncSteps: [SyncInitializationStep<Process>]? = nil,
        asyncSteps: [AsyncInitializationStep<Process>]? = nil,
        postSyncSteps: [SyncInitializationStep<Process>]? = nil,
        callbacks: InitializationCallbacks<Process>? = nil
    ) async throws -> InitializationResult<Process> {
        try await repeatInitializer(
            createProcess: createProcess, preSyncSteps: preSyncSteps, asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps, callbacks: callbacks
        ).run()
    }
}
