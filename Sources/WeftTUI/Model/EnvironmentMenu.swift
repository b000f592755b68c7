import FactKit

/// The environment picker's state: the catalog's environments, the one in use, the
/// highlighted one.
public struct EnvironmentMenu: Sendable, Hashable {
    /// The environments, in catalog order.
    public var environments: [Environment]
    /// The environment in use (marked), if any.
    public var current: String?
    /// The highlighted row.
    public private(set) var selectedIndex: Int

    /// A menu with the current environment highlighted.
    public init(environments: [Environment], current: String?) {
        self.environments = environments
        self.current = current
        self.selectedIndex = environments.firstIndex { $0.name == current } ?? 0
    }

    /// The highlighted environment, if the menu is not empty.
    public var selected: Environment? {
        environments.indices.contains(selectedIndex) ? environments[selectedIndex] : nil
    }

    /// Moves the highlight by `offset` rows, stopping at the first and last row.
    public mutating func move(by offset: Int) {
        guard !environments.isEmpty else { return }
        selectedIndex = min(max(0, selectedIndex + offset), environments.count - 1)
    }
}
