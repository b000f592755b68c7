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
        self.nodes = nodes.sorted { $0.key.description < $1.key.description }
        self.edges = edges.sorted {
            ($0.from.description, $0.to.description) < ($1.from.description, $1.to.description)
        }
    }

    /// The graph in Graphviz DOT: `weft graph --format dot | dot -Tsvg > graph.svg`.
    public func dot() -> String {
        var lines = ["digraph Weft {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for node in nodes {
            let label = "\(node.key)\\n\(node.lifetime)" + (node.site.map { "\\n\($0)" } ?? "")
            lines.append("  \(quoted(node.key.description)) [label=\(quoted(label))];")
        }
        for edge in edges {
            lines.append("  \(quoted(edge.from.description)) -> \(quoted(edge.to.description));")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, for Markdown that renders Mermaid.
    public func mermaid() -> String {
        var ids: [ServiceKey: String] = [:]
        for (index, node) in nodes.enumerated() { ids[node.key] = "n\(index)" }
        var lines = ["flowchart LR"]
        for node in nodes {
            let text = "\(node.key) · \(node.lifetime)" + (node.site.map { " · \($0)" } ?? "")
            let label = Self.replacingQuotes(in: text, with: "#quot;")
            lines.append("  \(ids[node.key] ?? "?")[\"\(label)\"]")
        }
        for edge in edges {
            guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
            lines.append("  \(from) --> \(to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func quoted(_ text: String) -> String {
        "\"" + Self.replacingQuotes(in: text, with: "\\\"") + "\""
    }

    private static func replacingQuotes(in text: String, with replacement: String) -> String {
        var result = ""
        for character in text {
            if character == "\"" { result += replacement } else { result.append(character) }
        }
        return result
    }
}
