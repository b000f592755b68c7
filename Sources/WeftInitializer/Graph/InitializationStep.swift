/// A step of a start-up graph: it names the steps it needs, and starts the moment they have
/// all finished.
///
/// ```swift
/// let steps: [InitializationStep<AppProcess>] = [
///     .sync("environment", title: "Choose the environment") { process in
///         process.environment = .production
///     },
///     .async("client", title: "Create the HTTP client", after: ["environment"]) { process in
///         HTTPClient(configuration: await process.environment.clientConfiguration)
///     } apply: { process, client in
///         process.client = client
///     },
///     .async("history", title: "Open the history", optional: true) { _ in
///         try await HistoryDatabase.open()
///     } apply: { process, database in
///         process.history = database
///     },
///     .async("fact", title: "Fetch a fact", after: ["client"], timeout: .seconds(5),
///            retry: .exponential(attempts: 3)) { process in
///         try await process.fetchFact()
///     } apply: { process, fact in
///         process.fact = fact
///     },
/// ]
/// ```
///
/// Sync steps run on the main actor and async steps off it, as in the three phases.
public struct InitializationStep<Process: DependencyInitializationProcess>: Sendable {
    var node: StepNode<Process>

    /// A synchronous step, run on the main actor once the steps in `after` have finished.
    /// - Parameters:
    ///   - id: The step's id, unique in the initializer; other steps name it in `after`.
    ///   - title: The title shown by user interfaces; the id when empty.
    ///   - type: `.simple` (first run only) or `.repeatable` (also on `runRepeat`).
    ///   - after: The ids of the steps that must finish first.
    ///   - optional: Whether a failure leaves the run degraded (its dependents skipped)
    ///     instead of failing it.
    ///   - schedule: Whether the run needs the step to be ready (the default), or runs it after.
    ///   - run: The work; throw to fail the step.
    public static func sync(
        _ id: String,
        title: String = "",
        type: InitializationStepType = .simple,
        after: [String] = [],
        optional: Bool = false,
        schedule: InitializationSchedule = .beforeReady,
        run: @escaping @MainActor @Sendable (Process) throws -> Void
    ) -> InitializationStep {
        InitializationStep(
            id, title: title, type: type, after: after, optional: optional, schedule: schedule, timeout: nil,
            retry: .never,
            priority: nil, work: .sync(run))
    }

    /// An asynchronous step that computes a value off the main actor; the initializer then
    /// stores it into the process with `apply`, on the main actor.
    /// - Parameters:
    ///   - id: The step's id, unique in the initializer; other steps name it in `after`.
    ///   - title: The title shown by user interfaces; the id when empty.
    ///   - type: `.simple` (first run only) or `.repeatable` (also on `runRepeat`).
    ///   - after: The ids of the steps that must finish first.
    ///   - optional: Whether a failure leaves the run degraded (its dependents skipped)
    ///     instead of failing it.
    ///   - schedule: Whether the run needs the step to be ready (the default), or runs it after.
    ///   - timeout: The longest one attempt may run; it is then cancelled and abandoned, and
    ///     counts as a failed attempt.
    ///   - retry: How often to try, and how long to wait between tries.
    ///   - priority: The priority of the step's task; `nil` inherits the run's priority.
    ///   - produce: The work, run off the main actor; throw to fail the attempt.
    ///   - apply: Stores the produced value; runs on the main actor, never for an abandoned
    ///     attempt.
    public static func async<Value: Sendable>(
        _ id: String,
        title: String = "",
        type: InitializationStepType = .simple,
        after: [String] = [],
        optional: Bool = false,
        schedule: InitializationSchedule = .beforeReady,
        timeout: Duration? = nil,
        retry: InitializationRetry = .never,
        priority: TaskPriority? = nil,
        produce: @escaping @Sendable (Process) async throws -> Value,
        apply: @escaping @MainActor @Sendable (Process, Value) -> Void
    ) -> InitializationStep {
        InitializationStep(
            id, title: title, type: type, after: after, optional: optional, schedule: schedule, timeout: timeout,
            retry: retry, priority: priority, work: .async(.producing(produce, apply: apply)))
    }

    /// An asynchronous step that stores nothing into the process, such as a check or a
    /// warm-up. The parameters are those of
    /// ``async(_:title:type:after:optional:schedule:timeout:retry:priority:produce:apply:)``.
    public static func async(
        _ id: String,
        title: String = "",
        type: InitializationStepType = .simple,
        after: [String] = [],
        optional: Bool = false,
        schedule: InitializationSchedule = .beforeReady,
        timeout: Duration? = nil,
        retry: InitializationRetry = .never,
        priority: TaskPriority? = nil,
        run: @escaping @Sendable (Process) async throws -> Void
    ) -> InitializationStep {
        InitializationStep(
            id, title: title, type: type, after: after, optional: optional, schedule: schedule, timeout: timeout,
            retry: retry, priority: priority, work: .async(.run(run)))
    }

    /// A step that runs only when its value is first asked for, through `handle`
    /// (``OnDemand/value()``), once the run is ready; the run neither starts it nor waits for it.
    ///
    /// ```swift
    /// .onDemand(history, title: "Open the history", after: ["settings"]) { process in
    ///     try await HistoryDatabase.open(await process.settings.historyPath)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - handle: The handle its value is asked for through; its id is the step's id.
    ///   - title: The title shown by user interfaces; the id when empty.
    ///   - type: `.simple` keeps the value across `runRepeat`; `.repeatable` runs the step again
    ///     at its first request after a repeat.
    ///   - after: The steps that must finish first: steps needed for ready (finished by the time
    ///     it can run), or other on-demand steps (asked for first). No other step may wait for it.
    ///   - timeout: The longest one attempt may run; it is then cancelled and abandoned, and
    ///     counts as a failed attempt.
    ///   - retry: How often to try, per request, and how long to wait between tries.
    ///   - priority: The priority of the step's task; `nil` inherits the first request's.
    ///   - produce: The work, run off the main actor; throw to fail the attempt.
    ///   - apply: Also stores the value into the process, on the main actor; by default, nothing.
    public static func onDemand<Value: Sendable>(
        _ handle: OnDemand<Value>,
        title: String = "",
        type: InitializationStepType = .simple,
        after: [String] = [],
        timeout: Duration? = nil,
        retry: InitializationRetry = .never,
        priority: TaskPriority? = nil,
        produce: @escaping @Sendable (Process) async throws -> Value,
        apply: @escaping @MainActor @Sendable (Process, Value) -> Void = { _, _ in }
    ) -> InitializationStep {
        var step = InitializationStep(
            handle.id, title: title, type: type, after: after, optional: false, schedule: .afterReady, timeout: timeout,
            retry: retry, priority: priority, work: .async(.run { _ in }))
        step.node.binder = { process, run, info, keepingValue in
            handle.bind(
                OnDemandBinding(
                    run: run, step: info, timeout: timeout, priority: priority, produce: { try await produce(process) },
                    apply: { value in apply(process, value) }),
                keepingValue: keepingValue)
        }
        return step
    }

    private init(
        _ id: String, title: String, type: InitializationStepType, after: [String], optional: Bool,
        schedule: InitializationSchedule, timeout: Duration?, retry: InitializationRetry, priority: TaskPriority?,
        work: StepNode<Process>.Work
    ) {
        node = StepNode(
            id: id, title: title.isEmpty ? id : title, type: type, after: after, isOptional: optional,
            timeout: timeout, retry: retry, priority: priority, work: work, schedule: schedule)
    }
}

/// One step of a run's graph, whichever way it was declared.
struct StepNode<Process: DependencyInitializationProcess>: Sendable {
    enum Work: Sendable {
        case sync(@MainActor @Sendable (Process) throws -> Void)
        case async(AsyncInitializationStep<Process>.Body)
    }

    let id: String
    let title: String
    let type: InitializationStepType
    let after: [String]
    let isOptional: Bool
    let timeout: Duration?
    let retry: InitializationRetry
    let priority: TaskPriority?
    let work: Work
    /// The phase it belongs to; `.graph` for a step of a graph.
    var phase: InitializationPhase = .graph
    /// Its index within its phase's list.
    var index = 0
    /// Whether a run needs it to be ready; an on-demand step's reads `afterReady`.
    var schedule: InitializationSchedule = .beforeReady
    /// For an on-demand step: points its handle at a run that reached ready, with the run's
    /// process, the step's description, and whether a finished `.simple` step keeps its value.
    var binder: (@MainActor @Sendable (Process, OnDemandRun, InitializationStepInfo, Bool) -> Void)?

    var isAsync: Bool {
        if case .async = work { true } else { false }
    }

    /// Whether it runs on demand: declared with `.onDemand(handle, …)`, which binds it.
    var isOnDemand: Bool { binder != nil }

    /// When it runs, for the graph's checks: before ready, after, or on demand.
    var runsAt: StepRunsAt { isOnDemand ? .onDemand : schedule == .afterReady ? .afterReady : .beforeReady }
}

/// When a step runs, for a graph's checks: its schedule, or on demand. Not nested in
/// the generic ``StepNode``, whose nested types' metadata is looked up at each use.
enum StepRunsAt { case beforeReady, afterReady, onDemand }
