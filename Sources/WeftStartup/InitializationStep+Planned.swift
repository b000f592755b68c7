public import Weft
public import WeftInitializer

/// How the step of one planned service runs, where the defaults do not suit it.
public struct PlannedStepOptions: Sendable {
    /// The step's id; the service key's description when `nil`.
    public var id: String?
    /// The step's title; `Make` and the service key when `nil`.
    public var title: String?
    /// Whether a failure leaves the run degraded (the steps that wait for it skipped) instead of
    /// failing it.
    public var optional: Bool
    /// The longest one attempt may run.
    public var timeout: Duration?
    /// How often to try, and how long to wait between tries.
    public var retry: InitializationRetry
    /// Whether the step makes the service only in a container that registers it, and otherwise
    /// ends at once: for one plan made from every service, run in containers that leave some
    /// out (an environment without a local server).
    public var ifRegistered: Bool

    /// Options for one planned service; leave out what keeps its default.
    public init(
        id: String? = nil, title: String? = nil, optional: Bool = false, timeout: Duration? = nil,
        retry: InitializationRetry = .never, ifRegistered: Bool = false
    ) {
        self.id = id
        self.title = title
        self.optional = optional
        self.timeout = timeout
        self.retry = retry
        self.ifRegistered = ifRegistered
    }
}

extension InitializationStep {
    /// One step for each service of `plan`, in plan order: each makes its service in the
    /// container `container` returns for the run's process, and starts once the steps of the
    /// services it waits for (`StartupPlan.Service.after`) and the steps in `after` have
    /// ended. A service made before ready is a step the run waits for; one made after ready runs
    /// after ready (`InitializationSchedule.afterReady`). The steps time, retry, report, trace
    /// and count like any other.
    ///
    /// - Parameters:
    ///   - plan: The plan, from `ValidationReport.startupPlan` or
    ///     `DependencyGraph.startupPlan(_:)`.
    ///   - after: Steps every planned step waits for too, such as the one that registers the
    ///     services.
    ///   - type: `.repeatable` (the default) makes the services again on `runRepeat`, in that
    ///     run's container.
    ///   - options: Ids, titles, optionality, timeouts and retries, by service.
    ///   - container: The container to make the services in.
    public static func planned(
        _ plan: StartupPlan,
        after: [String] = [],
        type: InitializationStepType = .repeatable,
        options: [ServiceKey: PlannedStepOptions] = [:],
        in container: @escaping @Sendable (Process) async throws -> Container
    ) -> [InitializationStep] {
        let ids = plan.services.map { options[$0.key]?.id ?? $0.id }
        var idOf: [ServiceKey: String] = [:]
        for (service, id) in zip(plan.services, ids) { idOf[service.key] = id }
        return zip(plan.services, ids).map { service, id in
            let option = options[service.key] ?? PlannedStepOptions()
            return .async(
                id, title: option.title ?? "Make \(service.key)", type: type,
                after: after + service.after.compactMap { idOf[$0] }, optional: option.optional,
                schedule: service.timing == .afterReady ? .afterReady : .beforeReady, timeout: option.timeout,
                retry: option.retry
            ) { process in
                do {
                    try await service.make(in: container(process))
                } catch let error as ResolutionError
                    where option.ifRegistered && error.code == .notRegistered && error.key == service.key
                {
                    // Not registered in this run's container, and allowed not to be.
                }
            }
        }
    }
}

extension StartupBudget {
    /// Whether `plan` can be ready within this budget (`check(chain:)`): its critical chain
    /// (`StartupPlan.criticalChain(taking:)`), each service taking the median limit of
    /// its step, by the id `id` gives it (the id `InitializationStep.planned(_:after:type:options:in:)`
    /// gives by default).
    public func check(
        _ plan: StartupPlan, id: (StartupPlan.Service) -> String = { $0.id }
    ) -> StartupBudgetCheck.Breach? {
        let chain = plan.criticalChain { service in steps[id(service)]?.median ?? .zero }
        return check(chain: chain.services.map(id))
    }
}
