import WeftTerminal

/// A bordered box with an optional title set into its top border, such as `┌ Cat fact ─┐`.
struct Box: Sendable, Hashable {
    /// The title, or `nil` for none.
    var title: String?
    /// Whether the box reports a failure (red border).
    var isFailure: Bool

    /// Creates a box.
    init(title: String? = nil, isFailure: Bool = false) {
        self.title = title
        self.isFailure = isFailure
    }

    /// Blanks `rect`, draws the border and the title; returns the interior.
    @discardableResult
    @MainActor
    func draw(in rect: Rect, on terminal: any Terminal, theme: Theme) -> Rect {
        guard rect.height >= 2, rect.width >= 2 else {
            return Rect(row: rect.row, column: rect.column, height: 0, width: 0)
        }
        let blank = String(repeating: " ", count: rect.width)
        for row in rect.row..<rect.bottom {
            terminal.put(blank, row: row, column: rect.column, style: theme.text)
        }
        terminal.drawBox(rect, style: isFailure ? theme.failureBorder : theme.border)
        if let title, rect.width > 6 {
            let label = " " + TextLayout.truncate(title, toWidth: rect.width - 6) + " "
            terminal.put(
                label, row: rect.row, column: rect.column + 2, style: isFailure ? theme.failure : theme.boxTitle)
        }
        return rect.insetBy(rows: 1, columns: 1)
    }
}
