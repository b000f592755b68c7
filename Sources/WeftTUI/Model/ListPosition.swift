/// The highlighted row of a list, moved by arrows, pages, Home and End, always within the list.
struct ListPosition: Sendable, Hashable {
    /// How a key moves the highlight.
    enum Move: Sendable, Hashable {
        case up, down, pageUp, pageDown, first, last
    }

    /// Rows one PgUp or PgDn moves.
    static let pageSize = 10

    /// How many rows the list has.
    private(set) var count: Int
    /// The highlighted row (0 for an empty list).
    private(set) var index: Int

    /// A position at `index`, clamped to a list of `count` rows.
    init(count: Int, index: Int = 0) {
        self.count = max(0, count)
        self.index = 0
        self.index = clamped(index)
    }

    /// Moves the highlight, stopping at the first and last row.
    mutating func apply(_ move: Move) {
        switch move {
        case .up: index = clamped(index - 1)
        case .down: index = clamped(index + 1)
        case .pageUp: index = clamped(index - Self.pageSize)
        case .pageDown: index = clamped(index + Self.pageSize)
        case .first: index = 0
        case .last: index = clamped(count - 1)
        }
    }

    /// Highlights row `index`, clamped to the list.
    mutating func select(_ index: Int) {
        self.index = clamped(index)
    }

    private func clamped(_ value: Int) -> Int {
        min(max(0, value), max(0, count - 1))
    }
}

extension ListPosition.Move {
    /// The move a list key asks for, or `nil` for other actions.
    init?(_ action: KeyAction) {
        switch action {
        case .moveUp: self = .up
        case .moveDown: self = .down
        case .pageUp: self = .pageUp
        case .pageDown: self = .pageDown
        case .moveFirst: self = .first
        case .moveLast: self = .last
        default: return nil
        }
    }
}
