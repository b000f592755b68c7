import WeftTerminal

/// The bottom line of every screen: `q quit  n next  ? help`, keys emphasised.
///
/// When the hints do not fit the width, hints before the last are dropped (from the end),
/// so the first hint and the last one — by convention `q quit` — always stay visible.
struct KeyHintBar: Sendable, Hashable {
    /// The hints, most important first.
    var hints: [KeyHint]

    /// Creates a bar.
    init(hints: [KeyHint]) {
        self.hints = hints
    }

    /// The hints that fit in `width` cells.
    func visibleHints(width: Int) -> [KeyHint] {
        var shown = hints
        while shown.count > 1, Self.width(of: shown) > width {
            shown.remove(at: shown.count - 2)
        }
        return Self.width(of: shown) > width ? [] : shown
    }

    /// Draws the bar across the full width of `row`.
    @MainActor
    func draw(row: Int, on terminal: any Terminal, theme: Theme) {
        let width = terminal.size.columns
        terminal.put(String(repeating: " ", count: width), row: row, column: 0, style: theme.hintBar)
        var column = 1
        for hint in visibleHints(width: width) {
            let keyText = " \(hint.key) "
            terminal.put(keyText, row: row, column: column, style: theme.hintKey)
            column += TextLayout.width(of: keyText)
            terminal.put(hint.label, row: row, column: column, style: theme.hintBar)
            column += TextLayout.width(of: hint.label) + 2
        }
    }

    private static func width(of hints: [KeyHint]) -> Int {
        1 + hints.reduce(0) { $0 + TextLayout.width(of: $1.key) + 2 + TextLayout.width(of: $1.label) + 2 }
    }
}
