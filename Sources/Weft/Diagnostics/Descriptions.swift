// Readable descriptions of the values a newcomer prints: a report, a graph, a registration read
// as text, never as their fields (`ValidationReport(problems: [], graph: Weft.DependencyGraph(…`).

extension DependencyGraph: CustomStringConvertible {
    /// A headline, then a line per service with what it resolved:
    ///
    /// ```
    /// 2 services, 1 dependency
    ///   Database (singleton)
    ///   Feed (transient) → Database
    /// ```
    public var description: String {
        var resolved: [ServiceKey: [ServiceKey]] = [:]
        for edge in edges { resolved[edge.from, default: []].append(edge.to) }
        let lines = nodes.map { node in
            "  \(node.key) (\(node.lifetime))"
                + (resolved[node.key].map { " → " + $0.map(\.description).joined(separator: ", ") } ?? "")
        }
        return ([headline] + lines).joined(separator: "\n")
    }

    /// `2 services, 1 dependency`.
    fileprivate var headline: String {
        counted(nodes.count, "service") + ", " + counted(edges.count, "dependency", "dependencies")
    }
}

extension ValidationReport: CustomStringConvertible {
    /// `valid: 2 services, 1 dependency`, or the problems, one per line:
    ///
    /// ```
    /// 1 problem:
    ///   - Feed (registered at App/main.swift:12) needs Database, which is not registered.
    /// ```
    ///
    /// Its ``warnings`` follow, one per line, either way.
    public var description: String {
        let headline =
            problems.isEmpty
            ? "valid: " + graph.headline
            : counted(problems.count, "problem") + ":"
        return ([headline] + problems.map { "  - \($0)" } + warnings.map { "  warning: \($0)" })
            .joined(separator: "\n")
    }
}

extension HealthReport: CustomStringConvertible {
    /// `degraded: Database healthy; "net" Probe degraded: slow`: the overall status, then each
    /// service's, by key.
    public var description: String {
        let overall =
            switch self.overall {
            case .healthy: "healthy"
            case .degraded: "degraded"
            case .unhealthy: "unhealthy"
            }
        let services = statuses.sorted { $0.key.description < $1.key.description }.map { "\($0.key) \($0.value)" }
        return services.isEmpty ? "\(overall): no service checked" : "\(overall): " + services.joined(separator: "; ")
    }
}

extension ModuleGraph: CustomStringConvertible {
    /// `2 modules: Accounts, Feed; Feed → Accounts`.
    public var description: String {
        counted(modules.count, "module") + ": " + modules.joined(separator: ", ")
            + (edges.isEmpty ? "" : "; " + edges.map(\.description).joined(separator: ", "))
    }
}

extension ModuleGraph.Edge: CustomStringConvertible {
    /// `Feed → Accounts`: the module that depends, and the one it depends on.
    public var description: String { "\(from) → \(to)" }
}

extension RegistrationInfo: CustomStringConvertible {
    /// `Database (singleton, made)`: the key, its lifetime, and whether a value is kept.
    public var description: String { "\(key) (\(lifetime)\(hasCachedInstance ? ", made" : ""))" }
}

extension Container: CustomStringConvertible {
    /// `container of 3 registrations, contexts: test`: what it and its ancestors register.
    public var description: String {
        let contexts = self.contexts.map(\.description).sorted()
        return "container of " + counted(registrations.count, "registration")
            + (contexts.isEmpty ? "" : ", contexts: " + contexts.joined(separator: ", "))
    }
}

/// `1 service`, `2 services`, `1 dependency`, `3 dependencies`.
private func counted(_ count: Int, _ one: String, _ many: String? = nil) -> String {
    "\(count) \(count == 1 ? one : many ?? one + "s")"
}
