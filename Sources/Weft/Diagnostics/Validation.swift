import Logging
import WeftPrimitives

/// Everything ``Container/validate()`` found wrong, and the graph it discovered.
public struct ValidationReport: Sendable {
    /// Every problem, each reported once.
    public let problems: [ValidationProblem]
    /// What looks like a mistake but leaves the graph valid: a key registered twice in this
    /// container (not its ancestors) from one place (``ValidationProblem/Code/registeredTwice``).
    public let warnings: [ValidationProblem]
    /// Registrations and the dependencies their factories resolved.
    public let graph: DependencyGraph
    /// How many contributions each collection has (`contribute(_:file:line:factory:)`),
    /// by the collection's key (`ServiceKey(HealthCheck.self)`): every one of them was
    /// resolved while validating. Collections without contributions are absent.
    public let contributions: [ServiceKey: Int]
    /// The start-up the graph implies for the container's ``Container/startup``, when it is
    /// set; its hazards are among ``problems``.
    public let startupPlan: StartupPlan?

    /// Whether no problem was found.
    public var isValid: Bool { problems.isEmpty }
}

/// One problem found by ``Container/validate()``.
///
/// Switch on ``code`` to tell problems apart; the kinds of problem may grow, so a `switch`
/// needs a `default`.
public struct ValidationProblem: Sendable, Hashable, CustomStringConvertible {
    /// A kind of problem.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case missingDependency, circularDependency, captiveDependency, requiresAsync, factoryFailed,
                requiresIsolation, unmetRequirement, registeredTwice, neededBeforeReady, startupServiceNotRegistered
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// ``ValidationProblem/service`` resolves ``ValidationProblem/dependency``, which is not
        /// registered.
        public static let missingDependency = Code(.missingDependency)
        /// Services depend on each other in a loop (``ValidationProblem/cycle``).
        public static let circularDependency = Code(.circularDependency)
        /// A singleton (``ValidationProblem/service``) keeps a ``ValidationProblem/dependency``
        /// whose ``ValidationProblem/lifetime`` is shorter: it would never see a new one.
        public static let captiveDependency = Code(.captiveDependency)
        /// A synchronous factory of ``ValidationProblem/service`` resolves
        /// ``ValidationProblem/dependency``, whose factory is `async`.
        public static let requiresAsync = Code(.requiresAsync)
        /// The factory of ``ValidationProblem/service`` threw (``ValidationProblem/message``).
        public static let factoryFailed = Code(.factoryFailed)
        /// ``ValidationProblem/service``, not isolated and either cached once made or `async`,
        /// resolves ``ValidationProblem/dependency``, whose factory runs on the main actor,
        /// synchronously (directly or through non-isolated transient and `.graph` services):
        /// run off the main actor, it fails with ``ResolutionError/Code/requiresIsolation``.
        public static let requiresIsolation = Code(.requiresIsolation)
        /// An installed module (``ValidationProblem/module``) declares
        /// ``ValidationProblem/service`` in its ``Module/requirements``, and it is not
        /// registered where the module was installed (or above).
        public static let unmetRequirement = Code(.unmetRequirement)
        /// A warning, never a problem: ``ValidationProblem/service`` was registered twice in
        /// one container from one place (outside modules, or one module's `configure`), at
        /// ``ValidationProblem/earlierSite`` and then at ``ValidationProblem/site``, which
        /// replaced the first. Often a copy-paste; replacing on purpose is `override`'s job. An
        /// override or a context in force does not hide it; a key with registrations for a
        /// context is not judged.
        public static let registeredTwice = Code(.registeredTwice)
        /// A hazard of the ``Container/startup`` plan: ``ValidationProblem/service``, which the
        /// first screen needs (``ValidationProblem/path`` leads from the first screen to it),
        /// resolves ``ValidationProblem/dependency``, marked to be made after ready or on demand
        /// (``ValidationProblem/message`` says which). The plan makes it before ready anyway.
        public static let neededBeforeReady = Code(.neededBeforeReady)
        /// ``Container/startup`` names ``ValidationProblem/service``, which is not registered
        /// (``ValidationProblem/message`` says when the declaration makes it).
        public static let startupServiceNotRegistered = Code(.startupServiceNotRegistered)
    }

    /// What kind of problem this is.
    public let code: Code
    /// The service whose registration has the problem; for a cycle, the cycle's first key.
    public let service: ServiceKey
    /// The dependency at fault: missing, captive, `async` or main-actor; `nil` for other problems.
    public let dependency: ServiceKey?
    /// For ``Code/circularDependency``, the loop (first and last key are the same); otherwise
    /// empty.
    public let cycle: [ServiceKey]
    /// For ``Code/captiveDependency``, the captive dependency's lifetime.
    public let lifetime: Lifetime?
    /// For ``Code/factoryFailed``, what the factory threw; otherwise empty.
    public let message: String
    /// The services being resolved, outermost first, when ``Container/validate()`` found the
    /// problem, ending with ``service``: `[App, Feed]` for a missing dependency of `Feed`
    /// reached from `App`. Empty for a problem made by hand, and for one the graph shows
    /// (captive and main-actor dependencies). Two problems that differ only here are equal.
    public private(set) var path: [ServiceKey] = []
    /// Where the keys the problem names were registered (the `#fileID` and `#line` of their
    /// `register` calls), when ``Container/validate()`` found it.
    private var sites: [ServiceKey: RegistrationSite] = [:]

    /// Where ``service`` was registered (its `register` call's `#fileID` and `#line`), when
    /// ``Container/validate()`` found it; `nil` for a problem made by hand. Two problems that
    /// differ only here are equal.
    public var site: RegistrationSite? { sites[service] }

    /// The module that registered ``service`` (its ``Module/name``, or for a fake, e.g.
    /// `FakeNetwork (in place of Network)`), when ``Container/validate()`` found the problem
    /// and a module's ``Module/configure(_:)`` registered it; `nil` for a service registered
    /// outside modules. For ``Code/unmetRequirement``, the module that declares the
    /// requirement. Two problems that differ only here are equal, except two unmet
    /// requirements of different modules.
    public private(set) var module: String?
    /// For ``Code/registeredTwice``, where the registration that was replaced was made.
    public private(set) var earlierSite: RegistrationSite?

    private init(
        _ code: Code, service: ServiceKey, dependency: ServiceKey? = nil, cycle: [ServiceKey] = [],
        lifetime: Lifetime? = nil, message: String = ""
    ) {
        self.code = code
        self.service = service
        self.dependency = dependency
        self.cycle = cycle
        self.lifetime = lifetime
        self.message = message
    }

    /// `service` resolves `missing`, which is not registered.
    public static func missingDependency(service: ServiceKey, missing: ServiceKey) -> ValidationProblem {
        ValidationProblem(.missingDependency, service: service, dependency: missing)
    }

    /// Services that depend on each other in a loop; `cycle` starts and ends with the same key.
    public static func circularDependency(_ cycle: [ServiceKey]) -> ValidationProblem {
        ValidationProblem(.circularDependency, service: cycle.first ?? ServiceKey(Never.self), cycle: cycle)
    }

    /// `singleton` keeps `dependency`, whose `lifetime` is shorter.
    public static func captiveDependency(
        singleton: ServiceKey, dependency: ServiceKey, lifetime: Lifetime
    ) -> ValidationProblem {
        ValidationProblem(.captiveDependency, service: singleton, dependency: dependency, lifetime: lifetime)
    }

    /// A synchronous factory of `service` resolves `dependency`, whose factory is `async`.
    public static func requiresAsync(service: ServiceKey, dependency: ServiceKey) -> ValidationProblem {
        ValidationProblem(.requiresAsync, service: service, dependency: dependency)
    }

    /// `service` resolves `dependency`, whose factory runs on the main actor, synchronously,
    /// and is made wherever it is first resolved.
    public static func requiresIsolation(service: ServiceKey, dependency: ServiceKey) -> ValidationProblem {
        ValidationProblem(.requiresIsolation, service: service, dependency: dependency)
    }

    /// The installed `module` requires `requirement`, which is not registered.
    public static func unmetRequirement(module: String, requirement: ServiceKey) -> ValidationProblem {
        var problem = ValidationProblem(.unmetRequirement, service: requirement)
        problem.module = module
        return problem
    }

    /// `service`, on the first screen's path, resolves `dependency`, which the start-up
    /// declaration marked to be made later (`marked`).
    public static func neededBeforeReady(
        service: ServiceKey, dependency: ServiceKey, marked: StartupTiming
    ) -> ValidationProblem {
        ValidationProblem(.neededBeforeReady, service: service, dependency: dependency, message: marked.description)
    }

    /// The start-up declaration names `key`, to be made at `timing`, and nothing registers it.
    public static func startupServiceNotRegistered(_ key: ServiceKey, timing: StartupTiming) -> ValidationProblem {
        ValidationProblem(.startupServiceNotRegistered, service: key, message: timing.description)
    }

    /// `service` was registered at `earlier`, then again at `later` in the same container, by
    /// `module` or outside modules.
    static func registeredTwice(
        _ service: ServiceKey, earlier: RegistrationSite?, later: RegistrationSite?, module: String?
    ) -> ValidationProblem {
        var problem = ValidationProblem(.registeredTwice, service: service)
        problem.earlierSite = earlier
        if let later { problem.sites[service] = later }
        problem.module = module
        return problem
    }

    /// The factory of `service` threw; `message` describes the error.
    public static func factoryFailed(service: ServiceKey, message: String) -> ValidationProblem {
        ValidationProblem(.factoryFailed, service: service, message: message)
    }

    /// This problem as found at the end of `path`.
    func with(path: [ServiceKey]) -> ValidationProblem {
        var problem = self
        problem.path = path
        return problem
    }

    /// This problem with the sites of the keys it names, from `registrations`, and the
    /// module of its service, from `provenance`.
    func sited(
        by registrations: [ServiceKey: Registration], provenance: [ServiceKey: Provenance] = [:]
    ) -> ValidationProblem {
        var problem = self
        for key in [service] + (dependency.map { [$0] } ?? []) + path + cycle {
            if let site = registrations[key]?.site { problem.sites[key] = site }
        }
        if code != .unmetRequirement { problem.module = provenance[service]?.label }
        return problem
    }

    public static func == (lhs: ValidationProblem, rhs: ValidationProblem) -> Bool {
        lhs.code == rhs.code && lhs.service == rhs.service && lhs.dependency == rhs.dependency
            && lhs.cycle == rhs.cycle && lhs.lifetime == rhs.lifetime && lhs.message == rhs.message
            && (lhs.code != .unmetRequirement || lhs.module == rhs.module)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(service)
        hasher.combine(dependency)
        hasher.combine(cycle)
        hasher.combine(lifetime)
        hasher.combine(message)
    }

    public var description: String {
        let service =
            switch (site, module) {
            case (let site?, let module?) where code != .unmetRequirement:
                "\(self.service) (registered at \(site) by module \(module))"
            case (nil, let module?) where code != .unmetRequirement: "\(self.service) (registered by module \(module))"
            case (let site?, _): "\(self.service) (registered at \(site))"
            default: "\(self.service)"
            }
        // The dependency's site, where it is registered, on its first mention only.
        let dependencyAt = self.dependency.map { key in sites[key].map { "\(key) (registered at \($0))" } ?? "\(key)" }
        let dependency = self.dependency.map(\.description) ?? "?"
        let text =
            switch code {
            case .missingDependency:
                "\(service) needs \(dependency), which is not registered."
                    + (module.map {
                        " Declare \(dependency) in the `requirements` of module \($0), so that `install` checks it, "
                            + "and register it (or install a module that does)."
                    } ?? "")
            case .circularDependency:
                "Circular dependency: \(cycle.map(\.description).joined(separator: " → "))\(registeredInCycle)."
            case .captiveDependency:
                "Singleton \(service) depends on \(lifetime.map(\.description) ?? "shorter-lived") "
                    + "\(dependencyAt ?? "?") and would keep one instance of it forever."
            case .requiresAsync:
                "\(service) resolves \(dependencyAt ?? "?") synchronously, but \(dependency) has an async factory: "
                    + "make the factory of \(self.service) `async` and `await` it."
            case .requiresIsolation:
                "\(service) resolves \(dependencyAt ?? "?") synchronously, but \(dependency) is made on the main actor: "
                    + "\(self.service) fails wherever it is first resolved off the main actor. "
                    + "Register \(self.service) with `isolation: MainActor.shared` too, or resolve \(dependency) "
                    + "with `await`."
            case .registeredTwice:
                "\(self.service) is registered twice in one container\(module.map { " by module \($0)" } ?? ""), at "
                    + "\(earlierSite.map(\.description) ?? "an earlier site") and again at "
                    + "\(site.map(\.description) ?? "a later site"), which replaced the first. Remove one of them; to "
                    + "replace a registration on purpose, use `override` (restorable), or register the key in one place."
            case .neededBeforeReady:
                "\(service) is made before ready, for the first screen, and resolves \(dependencyAt ?? "?"), which "
                    + "the start-up declaration makes \(message): it is made before ready too. Mark \(dependency) for "
                    + "the first screen, or take it off \(self.service)'s path (resolve it where it is used, after ready)."
            case .startupServiceNotRegistered:
                "The start-up declaration makes \(self.service) \(message), but nothing registers it. Register it, "
                    + "or take it out of `container.startup`."
            case .unmetRequirement:
                "Module \(module ?? "?") requires \(self.service), which is not registered. "
                    + "Register \(self.service) or install a module that does (or a fake of it), or drop the requirement."
            default:
                "The factory of \(service) threw: \(message)"
            }
        return text + through
    }

    /// The sites of a cycle's keys: ` (registered: A at App/A.swift:3, B at App/B.swift:9)`.
    private var registeredInCycle: String {
        let registered = Array(Set(cycle)).sorted { $0.description < $1.description }.compactMap { key in
            sites[key].map { "\(key) at \($0)" }
        }
        return registered.isEmpty ? "" : " (registered: \(registered.joined(separator: ", ")))"
    }

    /// The path from the validated root, when the service was reached through others:
    /// ` Path: App at App/main.swift:3 → Feed at App/main.swift:12.`
    private var through: String {
        guard path.count > 1 else { return "" }
        let steps = path.map { key in sites[key].map { "\(key) at \($0)" } ?? "\(key)" }
        return " Path: \(steps.joined(separator: " → "))."
    }
}

extension Container {
    /// Resolves every registration in a throwaway copy of this container and reports all
    /// problems at once: missing dependencies, cycles, captive dependencies, failing factories,
    /// synchronous factories that resolve a service whose factory is `async`, and services that
    /// need the main actor where they may not have it.
    ///
    /// Factories run for real (that is how dependencies are discovered) but their values
    /// are thrown away — a ``Disposable`` one is disposed before this returns — and this
    /// container's caches are untouched. Factories should resolve through their ``Resolver``
    /// so the copy, not this container, answers them; one with a side effect beyond making its
    /// value can skip it while ``isValidating``. Where main-actor registrations exist,
    /// synchronous factories run on the main actor while validating.
    ///
    /// Each dependency is judged by its edge, not by what the copy happened to make first: the
    /// verdict does not depend on the order of the keys.
    public func validate() async -> ValidationReport {
        let registrations = visibleRegistrations()
        let recorder = EdgeRecorder(runsOnMainActor: registrations.values.contains { $0.isMainActor && !$0.isAsync })
        let copy = copyForValidation(recorder: recorder)
        var problems: [ValidationProblem] = []
        var seen: Set<ValidationProblem> = []
        func add(_ problem: ValidationProblem) {
            if seen.insert(problem).inserted { problems.append(problem) }
        }
        var names = KeyDescriptions()
        let keys = registrations.keys.sorted { names[$0] < names[$1] }

        // A factory that takes arguments is validated where it is resolved with them. Each key is
        // judged on its own: the copy serves no value an `async` factory made to a synchronous
        // resolve, so what an earlier key made cannot hide a problem of a later one.
        let failures = await Validating.$current.withValue(true) {
            var failures: [ResolutionError] = []
            for key in keys where key.argumentsType == nil {
                do throws(ResolutionError) {
                    let _: any Sendable = try await copy.resolveValueAsync(key)
                } catch  where error.code == .requiresIsolation {
                    // Judged from the graph below, which names the service at fault.
                } catch {
                    failures.append(error)
                }
            }
            return failures
        }
        for failure in failures { add(Self.problem(for: failure)) }

        let edges = recorder.edges
        let sorted = edges.sorted {
            (names[$0.from.key], names[$0.to.key]) < (names[$1.from.key], names[$1.to.key])
        }
        for edge in sorted {
            guard let from = recorder.lifetime(of: edge.from), let to = recorder.lifetime(of: edge.to) else { continue }
            if from == .singleton, to == .transient || to == .scoped || to == .graph {
                add(.captiveDependency(singleton: edge.from.key, dependency: edge.to.key, lifetime: to))
            }
        }
        for problem in Self.isolationProblems(edges: sorted, recorder: recorder, names: &names) { add(problem) }
        for problem in unmetRequirements() { add(problem) }

        // Still validating: a factory that left out its side effect may leave out undoing it too.
        await Validating.$current.withValue(true) { await dispose(validationCopy: copy) }

        let provenance = visibleProvenance()
        let graph = DependencyGraph(
            nodes: registrations.values.map {
                DependencyGraph.Node(
                    key: $0.key, lifetime: $0.lifetime, site: $0.site, module: provenance[$0.key]?.label,
                    isAsync: $0.isAsync)
            },
            edges: Array(Set(edges.map { DependencyGraph.Edge(from: $0.from.key, to: $0.to.key) }))
        )
        let plan = startup.map(graph.startupPlan)
        for hazard in plan?.hazards ?? [] { add(hazard) }
        let sited = problems.map { problem in problem.sited(by: registrations, provenance: provenance) }
        var contributions: [ServiceKey: Int] = [:]
        for key in registrations.keys {
            if let collection = key.contributionCollection { contributions[collection, default: 0] += 1 }
        }
        let warnings = state.withLock { $0.registeredTwice }
        return ValidationReport(
            problems: sited, warnings: warnings, graph: graph, contributions: contributions, startupPlan: plan)
    }

    /// The requirements of the modules installed here and in ancestors that are not
    /// registered where each module was installed (or above), in install order, the root's
    /// modules first.
    private func unmetRequirements() -> [ValidationProblem] {
        var levels: [Container] = []
        var level: Container? = self
        while let current = level {
            levels.append(current)
            level = current.parent
        }
        var problems: [ValidationProblem] = []
        for level in levels.reversed() {
            let modules = level.state.withLock { $0.modules }
            guard !modules.isEmpty else { continue }
            for module in modules {
                for requirement in module.requirements where level.registration(for: requirement) == nil {
                    problems.append(.unmetRequirement(module: module.label, requirement: requirement))
                }
            }
        }
        return problems
    }

    /// Which module registered each key visible from here: a child's registration hides its
    /// parent's, with its provenance (or the lack of one).
    func visibleProvenance() -> [ServiceKey: Provenance] {
        var result: [ServiceKey: Provenance] = [:]
        var hidden: Set<ServiceKey> = []
        var container: Container? = self
        while let current = container {
            let (own, keys) = current.state.withLock { ($0.provenance, Set($0.registrations.keys)) }
            // A module's registration for a context that is not active hides nothing.
            for (key, provenance) in own where keys.contains(key) && !hidden.contains(key) {
                result[key] = provenance
            }
            hidden.formUnion(keys)
            container = current.parent
        }
        return result
    }

    /// A copy of this container and its ancestors, each level with its own registrations and
    /// no cached values: resolving in it follows the rules of a real resolution.
    private func copyForValidation(recorder: EdgeRecorder) -> Container {
        let parentCopy = parent?.copyForValidation(recorder: recorder)
        let (own, contributions) = state.withLock { ($0.registrations, $0.contributions) }
        return Container(copying: own, contributions: contributions, parent: parentCopy, recorder: recorder)
    }

    /// Shuts down a validation copy and its ancestors' copies, so what their factories made
    /// (a started server, an open file) does not outlive ``validate()``. A failure goes to this
    /// container's logger: it is not a problem of the registrations.
    private func dispose(validationCopy: Container) async {
        var level: Container? = validationCopy
        while let copy = level {
            do {
                try await copy.shutdown()
            } catch {
                diagnostics.logger.warning(
                    "Disposing a value made while validating failed", metadata: ["weft.error": "\(error)"])
            }
            level = copy.parent
        }
    }

    /// The registrations and the dependencies found by resolving each in a throwaway copy.
    public func graph() async -> DependencyGraph {
        await validate().graph
    }

    private static func problem(for error: ResolutionError) -> ValidationProblem {
        let problem = problemOfKey(for: error)
        guard error.code != .circularDependency else { return problem }
        // The path to the service at fault, ending with it.
        return problem.with(path: error.path.last == problem.service ? error.path : error.path + [problem.service])
    }

    private static func problemOfKey(for error: ResolutionError) -> ValidationProblem {
        let key = error.key
        switch error.code {
        case .notRegistered:
            return .missingDependency(service: error.path.last ?? key, missing: key)
        case .circularDependency:
            return .circularDependency(canonical(error.cycle))
        case .requiresAsync:
            return .requiresAsync(service: error.path.last ?? key, dependency: key)
        case .factoryFailed:
            return .factoryFailed(service: key, message: error.underlyingError.map { String(describing: $0) } ?? "")
        default:
            return .factoryFailed(service: key, message: error.description)
        }
    }

    /// Each non-isolated service that may run off the main actor whatever its caller does — one
    /// with a cached lifetime (made once, by whoever asks first) or an `async` factory (which
    /// runs off it) — and that reaches a synchronous main-actor service by synchronous resolves,
    /// directly or through non-isolated transient and `.graph` services (made where their
    /// asker runs).
    private static func isolationProblems(
        edges: [EdgeRecorder.Edge], recorder: EdgeRecorder, names: inout KeyDescriptions
    ) -> [ValidationProblem] {
        var next: [EdgeRecorder.Node: [EdgeRecorder.Node]] = [:]
        for edge in edges where edge.synchronously { next[edge.from, default: []].append(edge.to) }
        var problems: [ValidationProblem] = []
        for start in next.keys.sorted(by: { names[$0.key] < names[$1.key] }) {
            guard let facts = recorder.facts(of: start), !facts.isMainActor,
                facts.isAsync || [.singleton, .scoped, .weak].contains(facts.lifetime)
            else { continue }
            var seen: Set<EdgeRecorder.Node> = [start]
            var pending = next[start] ?? []
            while let node = pending.popLast() {
                guard seen.insert(node).inserted, let reached = recorder.facts(of: node) else { continue }
                if reached.isMainActor, !reached.isAsync {
                    problems.append(.requiresIsolation(service: start.key, dependency: node.key))
                } else if !reached.isMainActor, !reached.isAsync,
                    reached.lifetime == .transient || reached.lifetime == .graph
                {
                    pending += next[node] ?? []
                }
            }
        }
        return problems
    }

    /// The cycle rotated to start at its smallest key, so each loop is reported once.
    private static func canonical(_ cycle: [ServiceKey]) -> [ServiceKey] {
        let loop = Array(cycle.dropLast())
        guard let start = loop.indices.min(by: { loop[$0].description < loop[$1].description }) else { return cycle }
        let rotated = Array(loop[start...] + loop[..<start])
        return rotated + [rotated[0]]
    }
}

extension Container {
    /// Whether the current task is running factories for ``validate()``.
    ///
    /// Validation runs every factory for real, on a throwaway copy of the container. A factory
    /// with a side effect beyond making its value (listening on a port, sending a request,
    /// writing a file) can leave it out while validating:
    ///
    /// ```swift
    /// container.register(Server.self, lifetime: .singleton) { resolver in
    ///     let server = Server(port: try resolver.resolve(Settings.self).port)
    ///     if !Container.isValidating { try server.start() }
    ///     return server
    /// }
    /// ```
    ///
    /// It is `true` in the task that validates and the tasks it creates, while factories run and
    /// while the values they made are disposed (a `dispose()` can tell a server it never
    /// started), and `false` everywhere else.
    public static var isValidating: Bool { Validating.current }
}

/// Set while ``Container/validate()`` resolves in its copy.
enum Validating {
    @TaskLocal static var current = false
}

/// Each key's description, made once: it prints the key's type, slow enough that sorting the
/// 2,000 keys of a large app by descriptions made anew in every comparison took most of a
/// ``Container/validate()`` (Tests/Benchmarks, `modules-200x10-install-validate`).
struct KeyDescriptions {
    private var made: [ServiceKey: String] = [:]

    subscript(key: ServiceKey) -> String {
        mutating get {
            if let description = made[key] { return description }
            let description = key.description
            made[key] = description
            return description
        }
    }
}
