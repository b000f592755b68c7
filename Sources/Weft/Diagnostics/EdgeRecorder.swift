/// Collects the dependency edges a throwaway validation container discovers.
///
/// A node is a registration in one container of the copied tree: a parent's singleton and a
/// child's scoped service of the same key are different nodes with different lifetimes.
final class EdgeRecorder: Sendable {
    struct Node: Hashable, Sendable {
        let key: ServiceKey
        let owner: ObjectIdentifier
    }

    struct Edge: Hashable, Sendable {
        let from: Node
        let to: Node
    }

    private struct State {
        var edges: Set<Edge> = []
        var lifetimes: [Node: Lifetime] = [:]
    }

    private let state = Locked(State())

    /// Records that the step `frame` resolved `registration`, held by `owner`.
    func record(from frame: FrameLink?, to registration: Registration, owner: ObjectIdentifier) {
        let node = Node(key: registration.key, owner: owner)
        state.withLock { state in
            state.lifetimes[node] = registration.lifetime
            if let frame { state.edges.insert(Edge(from: Node(key: frame.key, owner: frame.owner), to: node)) }
        }
    }

    var edges: Set<Edge> { state.withLock { $0.edges } }

    func lifetime(of node: Node) -> Lifetime? { state.withLock { $0.lifetimes[node] } }
}
