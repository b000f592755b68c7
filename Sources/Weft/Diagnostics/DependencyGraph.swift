import WeftPrimitives

/// The registrations of a container and the dependencies discovered between them,
/// exportable as Graphviz DOT or Mermaid text; each registration shows its lifetime and where
/// it was registered.
///
/// Two graphs are equal when they have the same registrations, lifetimes and edges: where the
/// services were registered does not count.
public struct DependencyGraph: Sendable, Equatable {
    /// A registration.
    struct Node: Sendable, Hashable {
        let key: ServiceKey
        let lifetime: Lifetime
        /// Where it was registered, shown under the lifetime. Not part of equality: two graphs
        /// of the same shape are equal wherever their services were registered.
        var site: RegistrationSite?
        /// The module that registered it (see ``Module``), if a module did; not part of
        /// equality either.
        var module: String?
        /// Whether its factory is `async`: what a ``StartupPlan`` makes a step of. Not part of
        /// equality either.
        var isAsync = false

        static func == (lhs: Node, rhs: Node) -> Bool { lhs.key == rhs.key && lhs.lifetime == rhs.lifetime }

        func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(lifetime)
        }
    }

    /// `from` resolved `to` while being created.
    struct Edge: Sendable, Hashable {
        let from: ServiceKey
        let to: ServiceKey
    }

    /// Every registration, sorted by key.
    let nodes: [Node]
    /// Every discovered dependency, sorted.
    let edges: [Edge]

    init(nodes: [Node], edges: [Edge]) {
        var names = KeyDescriptions()
        self.nodes = nodes.sorted { names[$0.key] < names[$1.key] }
        self.edges = edges.sorted { (names[$0.from], names[$0.to]) < (names[$1.from], names[$1.to]) }
    }

    /// The graph in Graphviz DOT: `weft graph --format dot | dot -Tsvg > graph.svg`.
    public func dot() -> String {
        var lines = ["digraph Weft {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for node in nodes {
            let name = node.key.description
            let label = [name, "\(node.lifetime)"] + (node.site.map { ["\($0)"] } ?? [])
            lines.append("  \(Self.dotString([name])) [label=\(Self.dotString(label))];")
        }
        for edge in edges {
            lines.append("  \(Self.dotString([edge.from.description])) -> \(Self.dotString([edge.to.description]));")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, for Markdown that renders Mermaid.
    public func mermaid() -> String {
        Self.flowchart(
            nodes.map { node in
                (node.key, "\(node.key) · \(node.lifetime)" + (node.site.map { " · \($0)" } ?? ""))
            },
            idPrefix: "n", edges: edges.map { ($0.from, $0.to) })
    }

    /// A Mermaid flowchart of `nodes`, each shown with its label, and `edges` between them:
    /// the one writer of both graphs' Mermaid text.
    static func flowchart<Node: Hashable>(
        _ nodes: [(node: Node, label: String)], idPrefix: String, edges: [(from: Node, to: Node)]
    ) -> String {
        var ids: [Node: String] = [:]
        for (index, entry) in nodes.enumerated() { ids[entry.node] = "\(idPrefix)\(index)" }
        var lines = ["flowchart LR"]
        for (node, label) in nodes {
            // Mermaid's entity codes: a quote would end the label, and `<…>` (a generic
            // type's arguments) would be read as an HTML tag and dropped.
            let text = escaping(label, ["\"": "#quot;", "<": "#lt;", ">": "#gt;"])
            lines.append("  \(ids[node] ?? "?")[\"\(text)\"]")
        }
        for edge in edges {
            guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
            lines.append("  \(from) --> \(to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON, for tools: every registration, with its lifetime, module and site
    /// (`null` when none), and every dependency, both sorted as ``dot()`` sorts them.
    ///
    /// ```json
    /// {"version": 1,
    ///  "nodes": [{"key": "Feed", "lifetime": "singleton", "module": "FeedModule", "site": "App/Feed.swift:12"}],
    ///  "edges": [{"from": "Feed", "to": "Database"}]}
    /// ```
    ///
    /// `version` changes only if the shape does.
    public func json() -> String {
        let nodes = nodes.map { node in
            "    {\"key\": \(JSONString.literal(node.key.description)), \"lifetime\": \(JSONString.literal("\(node.lifetime)")), "
                + "\"module\": \(node.module.map(JSONString.literal) ?? "null"), "
                + "\"site\": \(node.site.map { JSONString.literal($0.description) } ?? "null")}"
        }
        let edges = edges.map { edge in
            "    {\"from\": \(JSONString.literal(edge.from.description)), \"to\": \(JSONString.literal(edge.to.description))}"
        }
        func array(_ items: [String]) -> String {
            items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n  ]"
        }
        return "{\n  \"version\": 1,\n  \"nodes\": \(array(nodes)),\n  \"edges\": \(array(edges))\n}\n"
    }

    /// The modules that registered these services, and which module's services resolve
    /// which other module's: an edge `Feed → Database` when a service the `Feed` module
    /// registered resolved one the `Database` module registered. Services registered outside
    /// modules, and dependencies within one module, are left out.
    public var modules: ModuleGraph {
        var module: [ServiceKey: String] = [:]
        for node in nodes { module[node.key] = node.module }
        var edges: Set<ModuleGraph.Edge> = []
        for edge in self.edges {
            guard let from = module[edge.from], let to = module[edge.to], from != to else { continue }
            edges.insert(ModuleGraph.Edge(from: from, to: to))
        }
        return ModuleGraph(
            modules: Set(module.values).sorted(), edges: edges.sorted { ($0.from, $0.to) < ($1.from, $1.to) })
    }

    /// `lines` as one Graphviz quoted string, shown as written: `"` and `\` escaped (a name
    /// ending in `\` would otherwise swallow the closing quote, and `\N` would read as the
    /// node's name), `\n` between the lines of a label.
    static func dotString(_ lines: [String]) -> String {
        "\"" + lines.map { escaping($0, ["\"": "\\\"", "\\": "\\\\"]) }.joined(separator: "\\n") + "\""
    }

    /// `text` with each character `replacements` names replaced.
    static func escaping(_ text: String, _ replacements: [Character: String]) -> String {
        var result = ""
        for character in text {
            if let replacement = replacements[character] { result += replacement } else { result.append(character) }
        }
        return result
    }
}

/// The modules of an app and the dependencies between them, from a validated
/// ``DependencyGraph`` (``DependencyGraph/modules``): which module's services resolve which
/// other module's. Exportable as Graphviz DOT or Mermaid text.
///
/// ```swift
/// let modules = await container.graph().modules
/// print(modules.mermaid())
/// ```
public struct ModuleGraph: Sendable, Hashable {
    /// A service of module ``from`` resolved a service of module ``to``.
    public struct Edge: Sendable, Hashable {
        /// The module whose service depends on the other's.
        public let from: String
        /// The module whose service is resolved.
        public let to: String
    }

    /// Every module that registered a service of the graph, sorted by name (a fake installed
    /// in another's place as `FakeNetwork (in place of Network)`).
    public let modules: [String]
    /// Every dependency between two modules, sorted.
    public let edges: [Edge]

    /// The graph in Graphviz DOT: `dot -Tsvg modules.dot > modules.svg`.
    public func dot() -> String {
        var lines = ["digraph Modules {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for module in modules { lines.append("  \(DependencyGraph.dotString([module]));") }
        for edge in edges {
            lines.append("  \(DependencyGraph.dotString([edge.from])) -> \(DependencyGraph.dotString([edge.to]));")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, for Markdown that renders Mermaid.
    public func mermaid() -> String {
        DependencyGraph.flowchart(modules.map { ($0, $0) }, idPrefix: "m", edges: edges.map { ($0.from, $0.to) })
    }
}
