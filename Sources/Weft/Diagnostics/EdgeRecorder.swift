/// Collects the dependency edges a throwaway validation container discovers.
final class EdgeRecorder: Sendable {
    struct Edge: Hashable, Sendable {
        let from: ServiceKey
        let to: ServiceKey
    }

    private let state = Locked<(edges: Set<Edge>, lifetimes: [ServiceKey: Lifetime])>(([], [:]))

    func record(from key: ServiceKey?, to registration: Registration) {
        state.withLock { state in
            state.lifetimes[registration.key] = registration.lifetime
            if let from = key { state.edges.insert(Edge(from: from, to: registration.key)) }
        }
    }

    var edges: Set<Edge> { state.withLock { $0.edges } }
}
