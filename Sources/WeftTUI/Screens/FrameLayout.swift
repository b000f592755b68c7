import WeftTerminal

/// What a drawn frame put where: the cell the focus is on, and what a click does on each part.
///
/// Screens return it from drawing, so that where the cursor is parked and where a click lands
/// always follow what was drawn, at every size.
struct FrameLayout: Sendable, Hashable {
    /// What a click on a part of the screen does.
    enum Action: Sendable, Hashable {
        /// What the key does: a hint of the key bar.
        case key(KeyAction)
        /// Selects the row of a list or menu (`index` into its items); a double click opens it.
        case row(Int)
    }

    /// A part of the screen a click acts on.
    struct Target: Sendable, Hashable {
        /// The cells.
        var rect: Rect
        /// What a click there does.
        var action: Action
    }

    /// The cell where the focus is: the start of the selected row, of the fact, of the error
    /// message. The terminal's cursor is parked there.
    var focus: CellPosition
    /// Whether the cursor is drawn whatever the setting, because the person is typing.
    var isTyping: Bool
    /// The parts a click acts on; where they overlap, the later one wins.
    var targets: [Target]
    /// The first row the screen's list showed, if it has one: the next frame starts there
    /// unless the highlight moved out of view.
    var listTop: Int?

    /// Creates a layout.
    init(focus: CellPosition, isTyping: Bool = false, targets: [Target] = []) {
        self.focus = focus
        self.isTyping = isTyping
        self.targets = targets
    }

    /// A layout with the focus at the top-left cell of `area` and nothing to click.
    init(topLeftOf area: Rect) {
        self.init(focus: CellPosition(row: area.row, column: area.column))
    }

    /// What a click at `position` does, or `nil` when it lands on nothing.
    func action(at position: CellPosition) -> Action? {
        targets.last { $0.rect.contains(position) }?.action
    }
}

/// How much room a screen has: the full layout from 60×16, the compact one below it.
enum LayoutSize {
    /// The smallest terminal that gets the full layout; below it screens draw their compact one.
    static let full = TerminalSize(rows: 16, columns: 60)

    /// Whether a body of `area` (the screen less its title and key bars) gets the compact layout.
    static func isCompact(_ area: Rect) -> Bool {
        area.height < full.rows - 2 || area.width < full.columns
    }
}
