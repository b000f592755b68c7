import FactKit

/// The history list's state: the facts once loaded, and the highlighted row.
struct HistoryPanel: Sendable, Hashable {
    /// What the list shows.
    enum Content: Sendable, Hashable {
        /// The facts are being read.
        case loading
        /// The facts, most recently shown first.
        case loaded([HistoryEntry])
        /// The history could not be read; the reason in a sentence.
        case failed(String)
    }

    /// What the list shows.
    private(set) var content: Content = .loading
    /// The highlighted row.
    private(set) var position = ListPosition(count: 0)
    /// Whether the highlighted entry is open: the whole fact, when and where, in place of the list.
    private(set) var isOpen = false

    /// The highlighted entry, if the list has one.
    var selected: HistoryEntry? {
        entries.indices.contains(position.index) ? entries[position.index] : nil
    }

    /// The facts, or none while loading or after a failure.
    var entries: [HistoryEntry] {
        if case .loaded(let entries) = content { entries } else { [] }
    }

    /// Shows `content`, the first row highlighted.
    mutating func show(_ content: Content) {
        self.content = content
        position = ListPosition(count: entries.count)
        isOpen = false
    }

    /// Moves the highlight as a list key asks.
    mutating func move(_ move: ListPosition.Move) {
        position.apply(move)
    }

    /// Highlights row `index` (a click), clamped to the list.
    mutating func select(_ index: Int) {
        position.select(index)
    }

    /// Records the first row the list was drawn from.
    mutating func setTop(_ top: Int) {
        position.setTop(top)
    }

    /// Opens the highlighted entry, when there is one; `false` when there is none.
    @discardableResult
    mutating func open() -> Bool {
        isOpen = selected != nil
        return isOpen
    }

    /// Goes back from the open entry to the list.
    mutating func close() {
        isOpen = false
    }
}
