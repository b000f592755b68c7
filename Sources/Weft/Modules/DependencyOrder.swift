import WeftPrimitives

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
                    throw .missing(
                        dependency, requiredBy: name(items[index]),
                        closest: closest(to: dependency, among: byName.keys.filter { $0 != name(items[index]) }))
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

/// Why items (modules, bootstrapping components) could not be ordered by their dependencies.
public struct OrderingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of ordering failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable { case cycle, missing, duplicate }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// The items depend on each other in a loop (``OrderingError/cycle``).
        public static let cycle = Code(.cycle)
        /// ``OrderingError/requiredBy`` depends on ``OrderingError/name``, which is not in the list.
        public static let missing = Code(.missing)
        /// Two items share ``OrderingError/name``.
        public static let duplicate = Code(.duplicate)
    }

    /// What kind of failure this is.
    public let code: Code
    /// The missing or duplicated name; for a cycle, the name that closed it.
    public let name: String
    /// For ``Code/cycle``, the loop, starting and ending with the same name; otherwise empty.
    public let cycle: [String]
    /// For ``Code/missing``, the item that depends on the missing name.
    public let requiredBy: String?
    /// For ``Code/missing``, the name in the list closest to the missing one, when it is close
    /// enough to be a typo of it.
    public let closest: String?

    private init(_ code: Code, name: String, cycle: [String] = [], requiredBy: String? = nil, closest: String? = nil) {
        self.code = code
        self.name = name
        self.cycle = cycle
        self.requiredBy = requiredBy
        self.closest = closest
    }

    /// The items in `path` depend on each other in a loop; `path` starts and ends with the same name.
    public static func cycle(_ path: [String]) -> OrderingError {
        OrderingError(.cycle, name: path.last ?? "", cycle: path)
    }

    /// `requiredBy` depends on `name`, which is not in the list; `closest` is the name in the
    /// list it is likely a typo of.
    public static func missing(_ name: String, requiredBy: String, closest: String? = nil) -> OrderingError {
        OrderingError(.missing, name: name, requiredBy: requiredBy, closest: closest)
    }

    /// Two items are named `name`.
    public static func duplicate(_ name: String) -> OrderingError {
        OrderingError(.duplicate, name: name)
    }

    public var description: String {
        switch code {
        case .cycle:
            "Dependency cycle: \(cycle.joined(separator: " → ")). Remove one of these dependencies."
        case .missing:
            "\(requiredBy ?? "An item") depends on \(name), which is not in the list."
                + (closest.map { " Did you mean \($0)?" } ?? "") + " Add \(name) or drop the dependency."
        default:
            "Two items are named \(name). Names must be unique."
        }
    }
}
