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

    /// The facts, or none while loading or after a failure.
    var entries: [HistoryEntry] {
        if case .loaded(let entries) = content { entries } else { [] }
    }

    /// Shows `content`, the first row highlighted.
    mutating func show(_ content: Content) {
        self.content = content
        position = ListPosition(count: entries.count)
    }

    /// Moves the highlight as a list key asks.
    mutating func move(_ move: ListPosition.Move) {
        position.apply(move)
    }
}
