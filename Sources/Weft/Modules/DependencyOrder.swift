/// Orders named items so each comes after the items it depends on.
///
/// The one ordering mechanism behind ``Module`` installation and ``Bootstrapped``: stable
/// (items without constraints keep their order), with typed errors for cycles, missing and
/// duplicate names.
enum DependencyOrder {
    /// `items` sorted topologically.
    ///
    /// - Parameters:
    ///   - name: An item's unique name.
    ///   - dependencies: The names an item needs before it.
    ///   - satisfied: Names available already (e.g. installed earlier): depending on one of
    ///     them needs no item in `items`.
    static func sorted<Item>(
        _ items: [Item],
        name: (Item) -> String,
        dependencies: (Item) -> [String],
        satisfied: Set<String> = []
    ) throws(OrderingError) -> [Item] {
        var byName: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard byName.updateValue(index, forKey: name(item)) == nil else {
                throw .duplicate(name(item))
            }
        }
        var marks: [Int: VisitMark] = [:]
        var order: [Item] = []
        var stack: [String] = []

        func visit(_ index: Int) throws(OrderingError) {
            switch marks[index] {
            case .done: return
            case .visiting:
                let itemName = name(items[index])
                let start = stack.firstIndex(of: itemName) ?? 0
                throw .cycle(Array(stack[start...]) + [itemName])
            case nil: break
            }
            marks[index] = .visiting
            stack.append(name(items[index]))
            for dependency in dependencies(items[index]) where !satisfied.contains(dependency) {
                guard let next = byName[dependency] else {
                    throw .missing(dependency, requiredBy: name(items[index]))
                }
                try visit(next)
            }
            stack.removeLast()
            marks[index] = .done
            order.append(items[index])
        }

        for index in items.indices { try visit(index) }
        return order
    }
}

private enum VisitMark { case visiting, done }

/// Why items could not be ordered.
public enum OrderingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The items depend on each other in a loop; the path starts and ends with the same name.
    case cycle([String])
    /// `requiredBy` depends on a name that is not in the list.
    case missing(String, requiredBy: String)
    /// Two items share a name.
    case duplicate(String)

    public var description: String {
        switch self {
        case .cycle(let path):
            "Dependency cycle: \(path.joined(separator: " → ")). Remove one of these dependencies."
        case .missing(let name, let requiredBy):
            "\(requiredBy) depends on \(name), which is not in the list. Add \(name) or drop the dependency."
        case .duplicate(let name):
            "Two items are named \(name). Names must be unique."
        }
    }
}
