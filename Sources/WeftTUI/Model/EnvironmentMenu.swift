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
    private(set) var position: ListPosition

    /// The highlighted row's index.
    var selectedIndex: Int { position.index }

    /// Records the first row the menu was drawn from.
    mutating func setTop(_ top: Int) {
        position.setTop(top)
    }

    /// A menu with the current environment highlighted.
    init(environments: [Environment], current: String?) {
        self.environments = environments
        self.current = current
        self.position = ListPosition(
            count: environments.count, index: environments.firstIndex { $0.name == current } ?? 0)
    }

    /// The highlighted environment, if the menu is not empty.
    var selected: Environment? {
        environments.indices.contains(selectedIndex) ? environments[selectedIndex] : nil
    }

    /// Moves the highlight by `offset` rows, stopping at the first and last row.
    mutating func move(by offset: Int) {
        for _ in 0..<abs(offset) { position.apply(offset < 0 ? .up : .down) }
    }

    /// Highlights row `index` (a click), clamped to the menu.
    mutating func select(_ index: Int) {
        position.select(index)
    }

    /// Moves the highlight as a list key asks.
    mutating func move(_ move: ListPosition.Move) {
        position.apply(move)
    }
}
