import WeftTerminal

/// The screen shown instead of a broken layout when the terminal is below the minimum size.
struct TooSmallNotice: Sendable, Hashable {
    /// The smallest size the app lays out for: 40×12 (compact below 60×16, ``LayoutSize``).
    static let minimumSize = TerminalSize(rows: 12, columns: 40)

    /// The actual size.
    var size: TerminalSize
    /// The size needed.
    var minimum: TerminalSize

    /// Creates a notice.
    init(size: TerminalSize, minimum: TerminalSize = TooSmallNotice.minimumSize) {
        self.size = size
        self.minimum = minimum
    }

    /// The message, such as `Terminal too small: 39×11, needs 40×12`.
    var message: String {
        "Terminal too small: \(size), needs \(minimum)"
    }

    /// Blanks the terminal and draws the message, wrapped and centred; the focus is its start.
    @MainActor
    @discardableResult
    func draw(on terminal: any Terminal, theme: Theme) -> FrameLayout {
        terminal.clear()
        let area = Rect(row: 0, column: 0, height: size.rows, width: size.columns)
        let lines = TextLayout.wrap(message, toWidth: max(1, size.columns - 2)) + ["resize the window, or q to quit"]
        let wrapped = lines.flatMap { TextLayout.wrap($0, toWidth: max(1, size.columns - 2)) }
        let top = area.row + max(0, (area.height - wrapped.count) / 2)
        var focus = CellPosition(row: top, column: 0)
        for (index, line) in wrapped.enumerated() {
            let column = TextLayout.centeredColumn(of: line, inWidth: size.columns)
            if index == 0 { focus.column = column }
            terminal.put(
                line, row: top + index, column: column, style: index == wrapped.count - 1 ? theme.muted : theme.warning)
        }
        return FrameLayout(focus: focus)
    }
}
