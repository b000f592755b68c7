/// The containers made from one container, held weakly: a scope per request must not live as
/// long as its parent. Lives in the parent's locked state.
struct Children {
    private var references: [WeakContainer] = []
    /// Past this count, released references are dropped before the next is added: amortized
    /// constant work per scope, and at most twice as many references as live children.
    private var pruneAt = 8

    var isEmpty: Bool { references.isEmpty }

    /// The children still alive.
    var alive: [Container] { references.compactMap(\.container) }

    mutating func add(_ child: Container) {
        if references.count >= pruneAt {
            references.removeAll { $0.container == nil }
            pruneAt = max(8, references.count * 2)
        }
        references.append(WeakContainer(container: child))
    }

    private struct WeakContainer {
        weak var container: Container?
    }
}
