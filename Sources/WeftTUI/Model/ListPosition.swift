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
    /// The first row the list showed when last drawn: the view scrolls only when the highlight
    /// leaves it, so a click does not move the rows under the pointer.
    private(set) var top = 0

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

    /// The first row to show when `rows` rows fit: where the list last started, moved only as
    /// far as keeps the highlight in view, and never past the end.
    func firstVisible(rows: Int) -> Int {
        Self.firstVisible(index: index, top: top, count: count, rows: rows)
    }

    /// Records the first row the list was drawn from.
    mutating func setTop(_ top: Int) {
        self.top = max(0, top)
    }

    /// The first row to show of `count` when `rows` fit, the highlight at `index`, and the
    /// list last started at `top`.
    static func firstVisible(index: Int, top: Int, count: Int, rows: Int) -> Int {
        guard rows > 0, count > 0 else { return 0 }
        let lowest = max(0, index - rows + 1)
        return min(max(lowest, min(top, index)), max(0, count - rows))
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
