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
    /// This run's timings, from which a graph's repeat learns which steps did not finish.
    var report: InitializationReport { get }
}

extension InitializationResult: RepeatableInitialization {}
extension InitializationFailure: RepeatableInitialization {}

extension RepeatableInitialization {
    /// Makes the initializer of a repeat run without starting it, so a user interface can
    /// read its ``DependencyInitializer/plan`` and subscribe to its
    /// ``DependencyInitializer/events()`` first.
    ///
    /// A repeat of the three phases executes only the steps marked
    /// ``InitializationStepType/repeatable``, in phase order, on a new process. A repeat of a
    /// graph executes the repeatable steps, the steps that did not finish in this run (an
    /// optional step that failed, the steps it skipped, the step that failed), and every step
    /// that waits for one of those, directly or not; the steps it keeps count as finished.
    /// Every argument left `nil` keeps this run's value.
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
    ///   - preSyncSteps: Replacement pre-sync steps; only their repeatable ones run. Passing
    ///     any of the three lists makes the repeat run the three phases, even for a graph.
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
        let source: StepSource<Process>
        let graph: StepGraph<Process>
        switch initializer.source {
        case .graph(let whole) where preSyncSteps == nil && asyncSteps == nil && postSyncSteps == nil:
            let ran = Set(initializer.plan.map(\.id))
            let finished = Set(report.steps.lazy.filter { $0.outcome == .finished }.map(\.step.id))
            source = .graph(whole)
            graph = whole.repeating { position in
                let step = whole.plan[position]
                return step.type == .repeatable || (ran.contains(step.id) && !finished.contains(step.id))
            }
        default:
            var preSync: [SyncInitializationStep<Process>] = []
            var async: [AsyncInitializationStep<Process>] = []
            var postSync: [SyncInitializationStep<Process>] = []
            if case .phases(let oldPreSync, let oldAsync, let oldPostSync) = initializer.source {
                (preSync, async, postSync) = (oldPreSync, oldAsync, oldPostSync)
            }
            source = .phases(
                preSync: (preSyncSteps ?? preSync).filter { $0.type == .repeatable },
                async: (asyncSteps ?? async).filter { $0.type == .repeatable },
                postSync: (postSyncSteps ?? postSync).filter { $0.type == .repeatable })
            graph = source.graph
        }
        guard !graph.isEmpty else { throw InitializationConfigurationError(code: .noRepeatableSteps) }
        return DependencyInitializer(
            graph: graph,
            source: source,
            createFresh: initializer.createFresh,
            carryOver: createProcess ?? initializer.carryOver,
            previousProcess: process,
            callbacks: callbacks ?? initializer.callbacks,
            tracer: initializer.tracer,
            clock: initializer.clock,
            deadline: initializer.deadline
        )
    }

    /// Runs the repeatable steps again and returns the new result; the callbacks are called
    /// as well. Steps after ready of this run still going are cancelled first, and waited for.
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
        // Steps after ready of this run still going would fill a process the repeat carries over.
        if let result = self as? InitializationResult<Process>, result.laterSteps != nil || result.onDemand != nil {
            result.cancelLaterSteps()
            _ = await result.waitForLaterSteps()
        }
        return try await repeatInitializer(
            createProcess: createProcess, preSyncSteps: preSyncSteps, asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps, callbacks: callbacks
        ).run()
    }
}
