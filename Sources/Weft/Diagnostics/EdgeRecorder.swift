import WeftPrimitives

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
        /// Whether the dependency was resolved synchronously (by the synchronous engine).
        var synchronously = false
    }

    /// What the validation learned of a registration it resolved.
    struct Facts: Sendable {
        let lifetime: Lifetime
        /// Whether its factory runs on the main actor.
        let isMainActor: Bool
        let isAsync: Bool
    }

    private struct State {
        var edges: Set<Edge> = []
        var facts: [Node: Facts] = [:]
    }

    private let state = Locked(State())

    /// Whether the validation runs every synchronous factory on the main actor, where any of
    /// them may run: set when the validated graph has main-actor registrations, so that the
    /// order in which ``Container/validate()`` resolves keys cannot decide a problem (whether a
    /// non-isolated one may be made elsewhere is judged from the graph instead).
    let runsOnMainActor: Bool

    init(runsOnMainActor: Bool = false) {
        self.runsOnMainActor = runsOnMainActor
    }

    /// Records that the step `frame` resolved `registration`, held by `owner`.
    func record(from frame: FrameLink?, to registration: Registration, owner: ObjectIdentifier, synchronously: Bool) {
        let node = Node(key: registration.key, owner: owner)
        state.withLock { state in
            state.facts[node] = Facts(
                lifetime: registration.lifetime, isMainActor: registration.isMainActor,
                isAsync: registration.isAsync)
            if let frame {
                state.edges.insert(
                    Edge(from: Node(key: frame.key, owner: frame.owner), to: node, synchronously: synchronously))
            }
        }
    }

    var edges: Set<Edge> { state.withLock { $0.edges } }

    func lifetime(of node: Node) -> Lifetime? { state.withLock { $0.facts[node]?.lifetime } }

    func facts(of node: Node) -> Facts? { state.withLock { $0.facts[node] } }
}
