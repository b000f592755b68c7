/// Builds a dependency container in three phases: synchronous steps on the main actor,
/// asynchronous steps concurrently off the main actor, then synchronous steps again.
///
/// The first failing step ends the run: its sibling async steps are cancelled, later steps
/// do not run, and `onError` is called once with an ``InitializationFailure``. On success
/// `onSuccess` receives an ``InitializationResult`` holding the container.
///
/// Callback form:
/// ```swift
/// try DependencyInitializer(
///     createProcess: { AppProcess() },
///     preSyncSteps: preSyncSteps,
///     asyncSteps: asyncSteps,
///     onSuccess: { result, elapsed in show(result.container) },
///     onError: { failure, process, step, elapsed in showError(failure) }
/// ).run()
/// ```
///
/// Async form:
/// ```swift
/// let initializer = try DependencyInitializer(createProcess: { AppProcess() }, asyncSteps: asyncSteps)
/// do {
///     let result = try await initializer.run()
/// } catch let failure as InitializationFailure<AppProcess> {
///     let retried = try await failure.runRepeat()
/// }
/// ```
@MainActor
public final class DependencyInitializer<Process: DependencyInitializationProcess> {
    /// The steps this initializer runs.
    public let steps: InitializationSteps<Process>
    /// Every step, in run order, for drawing them all as pending before the run starts.
    public let plan: [InitializationStepInfo]

    let createFresh: @MainActor @Sendable () -> Process
    let carryOver: (@MainActor @Sendable (Process) -> Process)?
    let previousProcess: Process?
    let callbacks: InitializationCallbacks<Process>
    let hub = EventHub()

    /// Creates an initializer.
    /// - Parameters:
    ///   - createProcess: Makes the empty process the steps fill.
    ///   - preSyncSteps: Synchronous steps run first, in order, on the main actor.
    ///   - asyncSteps: Asynchronous steps run concurrently, off the main actor.
    ///   - postSyncSteps: Synchronous steps run last, in order, on the main actor.
    ///   - onStart: Called when a run starts, with the plan.
    ///   - onStartStep: Called when a step starts.
    ///   - onSuccessStep: Called when a step finishes, with its duration.
    ///   - onSuccess: Called once when the run succeeds, with the result and elapsed time.
    ///   - onError: Called once when the run fails, with the failure, the partly built
    ///     process, the failed step and the elapsed time.
    /// - Throws: ``InitializationConfigurationError`` when all three step lists are empty.
    public convenience init(
        createProcess: @escaping @MainActor @Sendable () -> Process,
        preSyncSteps: [SyncInitializationStep<Process>] = [],
        asyncSteps: [AsyncInitializationStep<Process>] = [],
        postSyncSteps: [SyncInitializationStep<Process>] = [],
        onStart: (@MainActor @Sendable ([InitializationStepInfo]) -> Void)? = nil,
        onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)? = nil,
        onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)? = nil,
        onSuccess: (@MainActor @Sendable (InitializationResult<Process>, Duration) -> Void)? = nil,
        onError: (
            @MainActor @Sendable (InitializationFailure<Process>, Process, InitializationStepInfo, Duration) -> Void
        )? = nil
    ) throws(InitializationConfigurationError) {
        let steps = InitializationSteps(preSync: preSyncSteps, async: asyncSteps, postSync: postSyncSteps)
        guard !steps.isEmpty else { throw InitializationConfigurationError(code: .noSteps) }
        self.init(
            steps: steps,
            createFresh: createProcess,
            carryOver: nil,
            previousProcess: nil,
            callbacks: InitializationCallbacks(
                onStart: onStart,
                onStartStep: onStartStep,
                onSuccessStep: onSuccessStep,
                onSuccess: onSuccess,
                onError: onError
            )
        )
    }

    init(
        steps: InitializationSteps<Process>,
        createFresh: @escaping @MainActor @Sendable () -> Process,
        carryOver: (@MainActor @Sendable (Process) -> Process)?,
        previousProcess: Process?,
        callbacks: InitializationCallbacks<Process>
    ) {
        self.steps = steps
        self.plan = steps.plan
        self.createFresh = createFresh
        self.carryOver = carryOver
        self.previousProcess = previousProcess
        self.callbacks = callbacks
    }

    /// A stream of the events of the next run (or the run in progress), which finishes
    /// when that run ends.
    ///
    /// Subscribe before calling `run()` to see every event. Each call returns a new,
    /// independent stream; events are buffered, so a slow consumer misses none.
    public func events() -> AsyncStream<InitializationEvent> {
        hub.subscribe()
    }

    /// Starts a run in a new main-actor task and reports through the callbacks.
    ///
    /// Cancel the returned task to cancel the run (`onError` then reports a
    /// `CancellationError`). In an async context Swift prefers the async ``run()``; call
    /// ``start()`` there.
    @discardableResult
    public func run() -> Task<Void, Never> {
        start()
    }

    /// Starts a run in a new main-actor task and reports through the callbacks.
    ///
    /// The same as the callback form of `run()`, under a name that also resolves in
    /// async contexts. Cancel the returned task to cancel the run.
    @discardableResult
    public func start() -> Task<Void, Never> {
        Task { @MainActor in
            _ = try? await self.perform()
        }
    }

    /// Runs the initializer and returns its result; the callbacks are called as well.
    ///
    /// Cancelling the awaiting task cancels the run: running async steps are cancelled and
    /// the run fails with a `CancellationError` as its ``InitializationFailure/error``.
    /// - Throws: ``InitializationFailure`` describing the first failing step; catch it with
    ///   `catch let failure as InitializationFailure<AppProcess>`.
    public func run() async throws -> InitializationResult<Process> {
        try await perform()
    }
}
