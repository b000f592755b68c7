public import Tracing

/// Builds a dependency container in three phases — synchronous steps on the main actor,
/// asynchronous steps concurrently off the main actor, then synchronous steps again — or as a
/// graph of steps, each starting as soon as the steps it needs have finished.
///
/// The first failing step (that is not optional) ends the run: async steps still running are cancelled and
/// abandoned, later steps do not run, and the run throws an ``InitializationFailure``
/// (`onError` receives it too). On success the run returns an ``InitializationResult``
/// holding the container.
///
/// ```swift
/// let initializer = try DependencyInitializer(createProcess: { AppProcess() }, asyncSteps: asyncSteps)
/// do {
///     let result = try await initializer.run()
/// } catch let failure as InitializationFailure<AppProcess> {
///     let retried = try await failure.runRepeat()
/// }
/// ```
///
/// From synchronous code, ``start()`` runs it in a new task and reports through the
/// ``InitializationCallbacks``. An initializer runs once at a time: starting it while a run
/// is in progress throws ``InitializationConfigurationError/Code/alreadyRunning``.
@MainActor
public final class DependencyInitializer<Process: DependencyInitializationProcess> {
    /// Every step, in run order, for drawing them all as pending before the run starts.
    public let plan: [InitializationStepInfo]

    /// This run's steps.
    let graph: StepGraph<Process>
    /// The steps as given, which a repeat selects from.
    let source: StepSource<Process>
    /// Where timings are read and timeouts and retry delays are waited out.
    let clock: InitializationClock
    let createFresh: @MainActor @Sendable () -> Process
    let carryOver: (@MainActor @Sendable (Process) -> Process)?
    let previousProcess: Process?
    let callbacks: InitializationCallbacks<Process>
    /// Where the run's spans go; `nil` for the tracer the app bootstrapped.
    let tracer: (any Tracer)?
    /// How long a run may take, from its start; `nil` for no limit.
    let deadline: Duration?
    let hub = EventHub()
    /// Whether a run is in progress; a second one is refused while it is.
    var isRunning = false

    /// Creates an initializer.
    /// - Parameters:
    ///   - createProcess: Makes the empty process the steps fill.
    ///   - preSyncSteps: Synchronous steps run first, in order, on the main actor.
    ///   - asyncSteps: Asynchronous steps run concurrently, off the main actor.
    ///   - postSyncSteps: Synchronous steps run last, in order, on the main actor.
    ///   - callbacks: What to call as the run goes; none by default.
    ///   - tracer: Where the run's spans go; `nil` for the tracer the app bootstrapped.
    ///   - deadline: How long a run may take from its start; when it passes, every step still
    ///     going is cancelled and the run fails with ``InitializationDeadlineExceeded``. `nil`,
    ///     the default, for no limit.
    /// - Throws: ``InitializationConfigurationError`` when all three step lists are empty.
    public convenience init(
        createProcess: @escaping @MainActor @Sendable () -> Process,
        preSyncSteps: [SyncInitializationStep<Process>] = [],
        asyncSteps: [AsyncInitializationStep<Process>] = [],
        postSyncSteps: [SyncInitializationStep<Process>] = [],
        callbacks: InitializationCallbacks<Process> = InitializationCallbacks(),
        tracer: (any Tracer)? = nil,
        deadline: Duration? = nil
    ) throws(InitializationConfigurationError) {
        guard !(preSyncSteps.isEmpty && asyncSteps.isEmpty && postSyncSteps.isEmpty) else {
            throw InitializationConfigurationError(code: .noSteps)
        }
        let source = StepSource<Process>.phases(preSync: preSyncSteps, async: asyncSteps, postSync: postSyncSteps)
        self.init(
            graph: source.graph, source: source, createFresh: createProcess, carryOver: nil, previousProcess: nil,
            callbacks: callbacks, tracer: tracer, clock: .continuous, deadline: deadline)
    }

    /// Creates an initializer that runs `steps` as a graph: each step starts the moment the
    /// steps it names in `after` have finished, with as much parallelism as that allows.
    /// - Parameters:
    ///   - createProcess: Makes the empty process the steps fill.
    ///   - steps: The steps, in the order user interfaces list them.
    ///   - callbacks: What to call as the run goes; none by default.
    ///   - tracer: Where the run's spans go; `nil` for the tracer the app bootstrapped.
    ///   - clock: Where timings are read and timeouts and retry delays waited out.
    ///   - deadline: How long a run may take from its start; when it passes, every step still
    ///     going is cancelled and the run fails with ``InitializationDeadlineExceeded``. `nil`,
    ///     the default, for no limit.
    /// - Throws: ``InitializationConfigurationError`` when there is no step, two steps share an
    ///   id, a prerequisite does not exist, steps wait for each other in a circle, or a retry
    ///   policy is out of range; nothing has run then.
    public convenience init(
        createProcess: @escaping @MainActor @Sendable () -> Process,
        steps: [InitializationStep<Process>],
        callbacks: InitializationCallbacks<Process> = InitializationCallbacks(),
        tracer: (any Tracer)? = nil,
        clock: InitializationClock = .continuous,
        deadline: Duration? = nil
    ) throws(InitializationConfigurationError) {
        let graph = try StepGraph<Process>.graph(steps)
        self.init(
            graph: graph, source: .graph(graph), createFresh: createProcess, carryOver: nil, previousProcess: nil,
            callbacks: callbacks, tracer: tracer, clock: clock, deadline: deadline)
    }

    init(
        graph: StepGraph<Process>,
        source: StepSource<Process>,
        createFresh: @escaping @MainActor @Sendable () -> Process,
        carryOver: (@MainActor @Sendable (Process) -> Process)?,
        previousProcess: Process?,
        callbacks: InitializationCallbacks<Process>,
        tracer: (any Tracer)?,
        clock: InitializationClock,
        deadline: Duration?
    ) {
        self.deadline = deadline
        self.graph = graph
        self.source = source
        self.clock = clock
        self.plan = graph.plan
        self.createFresh = createFresh
        self.carryOver = carryOver
        self.previousProcess = previousProcess
        self.callbacks = callbacks
        self.tracer = tracer
    }

    /// A stream of the events of the next run (or the run in progress), which finishes
    /// when that run ends.
    ///
    /// Subscribe before starting the run to see every event: a stream that joins a run in
    /// progress sees the run's and its phases' later events (`phaseStarted`, `phaseFinished`,
    /// `ready`, `finished` or `failed`), and its steps' only if another stream was listening
    /// when the run started. Each call returns a new, independent stream; events are buffered,
    /// so a slow consumer misses none.
    public func events() -> AsyncStream<InitializationEvent> {
        hub.subscribe()
    }

    /// Starts a run in a new main-actor task and reports through the callbacks; the form
    /// for synchronous code.
    ///
    /// Cancel the returned task to cancel the run (`onError` then receives a failure whose
    /// error is a `CancellationError`).
    /// - Throws: ``InitializationConfigurationError/Code/alreadyRunning`` while a run of
    ///   this initializer is in progress.
    @discardableResult
    public func start() throws(InitializationConfigurationError) -> Task<Void, Never> {
        try beginRun()
        return Task { @MainActor in
            _ = try? await self.perform()
        }
    }

    /// Runs the initializer and returns its result; the callbacks are called as well.
    ///
    /// Cancelling the awaiting task cancels the run: it fails at once with a
    /// `CancellationError` as its ``InitializationFailure/error``, and async steps still
    /// running are cancelled and abandoned; they read cancelled, none failed, and the
    /// failure's ``InitializationFailure/failedStep`` is the step the run was in.
    /// - Throws: ``InitializationFailure`` describing the first failing step (catch it with
    ///   `catch let failure as InitializationFailure<AppProcess>`), or
    ///   ``InitializationConfigurationError/Code/alreadyRunning`` while a run of this
    ///   initializer is in progress.
    public func run() async throws -> InitializationResult<Process> {
        try beginRun()
        return try await perform()
    }

    /// Marks a run as in progress, refusing a second one.
    private func beginRun() throws(InitializationConfigurationError) {
        guard !isRunning else { throw InitializationConfigurationError(code: .alreadyRunning) }
        isRunning = true
    }
}
