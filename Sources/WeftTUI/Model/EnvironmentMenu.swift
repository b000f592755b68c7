import FactKit
import WeftTerminal

/// The environment picker's state: the catalog's environments, the one in use, the
/// highlighted one.
struct EnvironmentMenu: Sendable, Hashable {
    /// The environments, in catalog order.
    var environments: [Environment]
    /// The environment in use (marked), if any.
    var current: String?
    /// The highlighted row.
    private(set) var selectedIndex: Int

    /// A menu with the current environment highlighted.
    init(environments: [Environment], current: String?) {
        self.environments = environments
        self.current = current
        self.selectedIndex = environments.firstIndex { $0.name == current } ?? 0
    }

    /// The highlighted environment, if the menu is not empty.
    var selected: Environment? {
        environments.indices.contains(selectedIndex) ? environments[selectedIndex] : nil
    }

    /// Moves the highlight by `offset` rows, stopping at the first and last row.
    mutating func move(by offset: Int) {
        guard !environments.isEmpty else { return }
        selectedIndex = min(max(0, selectedIndex + offset), environments.count - 1)
    }
}
