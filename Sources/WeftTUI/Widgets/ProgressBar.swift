import WeftTerminal

/// A horizontal progress bar, `████████░░░░ 2/4`.
struct ProgressBar: Sendable, Hashable {
    /// Completed units.
    var completed: Int
    /// Total units; a total of zero shows an empty bar.
    var total: Int
    /// The bar's symbols (`█░`, or `#.` in ASCII).
    var glyphs: Glyphs

    /// Creates a progress bar.
    init(completed: Int, total: Int, glyphs: Glyphs = .unicode) {
        self.completed = completed
        self.total = total
        self.glyphs = glyphs
    }

    /// The completed fraction, between 0 and 1.
    var fraction: Double {
        total > 0 ? min(1, max(0, Double(completed) / Double(total))) : 0
    }

    /// The bar's text for a given width, label included (such as `█████░░░░░ 2/4`).
    func text(width: Int) -> (filled: String, empty: String, label: String) {
        let label = " \(min(completed, total))/\(total)"
        let barWidth = max(0, width - TextLayout.width(of: label))
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        return (
            String(repeating: glyphs.barFilled, count: filled),
            String(repeating: glyphs.barEmpty, count: barWidth - filled), label
        )
    }

    /// Draws the bar on one row, `width` cells wide.
    @MainActor
    func draw(row: Int, column: Int, width: Int, on terminal: any Terminal, theme: Theme) {
        let parts = text(width: width)
        terminal.put(parts.filled, row: row, column: column, style: theme.success)
        terminal.put(parts.empty, row: row, column: column + parts.filled.count, style: theme.muted)
        terminal.put(parts.label, row: row, column: column + parts.filled.count + parts.empty.count, style: theme.text)
    }
}
