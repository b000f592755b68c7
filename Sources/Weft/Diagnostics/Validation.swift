import Logging

/// Everything ``Container/validate()`` found wrong, and the graph it discovered.
public struct ValidationReport: Sendable {
    /// Every problem, each reported once.
    public let problems: [ValidationProblem]
    /// Registrations and the dependencies their factories resolved.
    public let graph: DependencyGraph

    /// Whether no problem was found.
    public var isValid: Bool { problems.isEmpty }
}

/// One problem found by ``Container/validate()``.
public enum ValidationProblem: Sendable, Hashable, CustomStringConvertible {
    /// `service` resolves `missing`, which is not registered.
    case missingDependency(service: ServiceKey, missing: ServiceKey)
    /// Services that depend on each other in a loop (first and last key are the same).
    case circularDependency([ServiceKey])
    /// A singleton keeps a value whose lifetime is shorter: it would never see a new one.
    case captiveDependency(singleton: ServiceKey, dependency: ServiceKey, lifetime: Lifetime)
    /// A synchronous factory of `service` resolves `dependency`, whose factory is `async`.
    case requiresAsync(service: ServiceKey, dependency: ServiceKey)
    /// The factory of `service` threw.
    case factoryFailed(service: ServiceKey, message: String)

    public var description: String {
        switch self {
        case .missingDependency(let service, let missing):
            "\(service) needs \(missing), which is not registered."
        case .circularDependency(let cycle):
            "Circular dependency: \(cycle.map(\.description).joined(separator: " → "))."
        case .captiveDependency(let singleton, let dependency, let lifetime):
            "Singleton \(singleton) depends on \(lifetime) \(dependency) and would keep one instance of it forever."
        case .requiresAsync(let service, let dependency):
            "\(service) resolves \(dependency) synchronously, but \(dependency) has an async factory."
        case .factoryFailed(let service, let message):
            "The factory of \(service) threw: \(message)"
        }
    }
}

extension Container {
    /// Resolves every registration in a throwaway copy of this container and reports all
    /// problems at once: missing dependencies, cycles, captive dependencies, failing factories.
    ///
    /// Factories run for real (that is how dependencies are discovered) but their values
    /// are thrown away — a ``Disposable`` one is disposed before this returns — and this
    /// container's caches are untouched. Factories should resolve through their ``Resolver``
    /// so the copy, not this container, answers them.
    public func validate() async -> ValidationReport {
        let registrations = visibleRegistrations()
        let recorder = EdgeRecorder()
        let copy = copyForValidation(recorder: recorder)
        var problems: [ValidationProblem] = []
        var seen: Set<ValidationProblem> = []
        func add(_ problem: ValidationProblem) {
            if seen.insert(problem).inserted { problems.append(problem) }
        }

        // A factory that takes arguments is validated where it is resolved with them.
        for key in registrations.keys.sorted(by: { $0.description < $1.description }) where key.argumentsType == nil {
            do {
                let _: any Sendable = try await copy.resolveAsync(key)
            } catch {
                add(Self.problem(for: error))
            }
        }

        let edges = recorder.edges
        let sorted = edges.sorted {
            ($0.from.key.description, $0.to.key.description) < ($1.from.key.description, $1.to.key.description)
        }
        for edge in sorted {
            guard let from = recorder.lifetime(of: edge.from), let to = recorder.lifetime(of: edge.to) else { continue }
            if from == .singleton, to == .transient || to == .scoped || to == .graph {
                add(.captiveDependency(singleton: edge.from.key, dependency: edge.to.key, lifetime: to))
            }
        }

        await dispose(validationCopy: copy)

        let graph = DependencyGraph(
            nodes: registrations.values.map { DependencyGraph.Node(key: $0.key, lifetime: $0.lifetime) },
            edges: Array(Set(edges.map { DependencyGraph.Edge(from: $0.from.key, to: $0.to.key) }))
        )
        return ValidationReport(problems: problems, graph: graph)
    }

    /// A copy of this container and its ancestors, each level with its own registrations and
    /// no cached values: resolving in it follows the rules of a real resolution.
    private func copyForValidation(recorder: EdgeRecorder) -> Container {
        let parentCopy = parent?.copyForValidation(recorder: recorder)
        let own = state.withLock { $0.registrations }
        return Container(copying: own, parent: parentCopy, recorder: recorder)
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

    /// The cycle rotated to start at its smallest key, so each loop is reported once.
    private static func canonical(_ cycle: [ServiceKey]) -> [ServiceKey] {
        let loop = Array(cycle.dropLast())
        guard let start = loop.indices.min(by: { loop[$0].description < loop[$1].description }) else { return cycle }
        let rotated = Array(loop[start...] + loop[..<start])
        return rotated + [rotated[0]]
    }
}
