import WeftTerminal

/// Bars on a shared time axis: one row per entry, label on the left, a bar from its start
/// offset for its duration, scaled to the width. Parallel entries overlap.
struct Timeline: Sendable, Hashable {
    /// One bar.
    struct Entry: Sendable, Hashable {
        /// What ran, such as a step title.
        var label: String
        /// When it started, in milliseconds from the start of the run.
        var startMilliseconds: Int
        /// How long it ran, in milliseconds.
        var durationMilliseconds: Int
        /// Whether it failed (red bar).
        var isFailure: Bool
        /// Whether it is on the critical chain: marked before its label, its bar highlighted.
        var isCritical: Bool
        /// Whether it did not run (an optional step it needs failed).
        var isSkipped: Bool

        /// Creates an entry.
        init(
            label: String, startMilliseconds: Int, durationMilliseconds: Int, isFailure: Bool = false,
            isCritical: Bool = false, isSkipped: Bool = false
        ) {
            self.label = label
            self.startMilliseconds = startMilliseconds
            self.durationMilliseconds = durationMilliseconds
            self.isFailure = isFailure
            self.isCritical = isCritical
            self.isSkipped = isSkipped
        }
    }

    /// The bars, in display order.
    var entries: [Entry]

    /// Creates a timeline.
    init(entries: [Entry]) {
        self.entries = entries
    }

    /// The end of the latest entry, in milliseconds (at least 1).
    var totalMilliseconds: Int {
        max(1, entries.map { $0.startMilliseconds + $0.durationMilliseconds }.max() ?? 1)
    }

    /// The bar's columns within a bar area `width` cells wide: start offset and length (≥ 1).
    func barSpan(of entry: Entry, width: Int) -> (start: Int, length: Int) {
        guard width > 0 else { return (0, 0) }
        let total = Double(totalMilliseconds)
        // Both ends round the same way, so a bar that starts where another ends never overlaps it.
        let start = min(width - 1, Int((Double(max(0, entry.startMilliseconds)) / total * Double(width)).rounded()))
        let end = Int(
            (Double(max(0, entry.startMilliseconds + entry.durationMilliseconds)) / total * Double(width)).rounded())
        return (start, max(1, min(width, end) - start))
    }

    /// Draws up to `rect.height - 1` entries, from entry `first` on, and a time axis on the
    /// last row. A failed entry says so in words and with a glyph, not by colour alone.
    @MainActor
    func draw(in rect: Rect, from first: Int = 0, on terminal: any Terminal, theme: Theme) {
        guard rect.height >= 2, rect.width >= 20 else { return }
        let labelWidth = min(entries.map { TextLayout.width(of: $0.label) + 2 }.max() ?? 0, max(8, rect.width * 2 / 5))
        let durationWidth = 9
        let barColumn = rect.column + labelWidth + 1
        let barWidth = rect.width - labelWidth - 1 - durationWidth
        guard barWidth > 0 else { return }
        let shown = entries.dropFirst(max(0, first)).prefix(rect.height - 1)
        for (offset, entry) in shown.enumerated() {
            let row = rect.row + offset
            let marker = entry.isCritical ? theme.glyphs.pointer : " "
            terminal.put(marker, row: row, column: rect.column, style: theme.accent)
            terminal.put(
                TextLayout.pad(entry.label, toWidth: labelWidth - 2), row: row, column: rect.column + 2,
                style: theme.text)
            terminal.put(
                String(repeating: theme.glyphs.pending, count: barWidth), row: row, column: barColumn,
                style: theme.muted)
            let span = barSpan(of: entry, width: barWidth)
            if !entry.isSkipped {
                terminal.put(
                    String(repeating: theme.glyphs.barFilled, count: span.length), row: row,
                    column: barColumn + span.start,
                    style: entry.isFailure ? theme.failure : entry.isCritical ? theme.accent : theme.success)
            }
            let durationText =
                entry.isFailure
                ? "\(theme.glyphs.failed) failed"
                : entry.isSkipped ? "skipped" : Self.format(milliseconds: entry.durationMilliseconds)
            let duration = TextLayout.pad(durationText, toWidth: durationWidth - 1, alignment: .right)
            terminal.put(
                duration, row: row, column: barColumn + barWidth + 1,
                style: entry.isFailure ? theme.failure : theme.muted)
        }
        let axisRow = rect.row + shown.count
        let start = "0"
        let end = Self.format(milliseconds: totalMilliseconds)
        terminal.put(start, row: axisRow, column: barColumn, style: theme.muted)
        terminal.put(end, row: axisRow, column: barColumn + barWidth - TextLayout.width(of: end), style: theme.muted)
    }

    /// Draws up to `rect.height` entries from entry `first` on as a list without bars: the
    /// critical-chain mark, the label, and the duration (or `✗ failed`, `skipped`) on the right.
    /// For narrow terminals, where bars would be a few cells long.
    @MainActor
    func drawList(in rect: Rect, from first: Int = 0, on terminal: any Terminal, theme: Theme) {
        guard rect.height >= 1, rect.width >= 12 else { return }
        let durationWidth = 9
        let labelWidth = rect.width - 2 - durationWidth
        for (offset, entry) in entries.dropFirst(max(0, first)).prefix(rect.height).enumerated() {
            let row = rect.row + offset
            terminal.put(
                entry.isCritical ? theme.glyphs.pointer : " ", row: row, column: rect.column, style: theme.accent)
            terminal.put(
                TextLayout.pad(TextLayout.truncate(entry.label, toWidth: labelWidth - 1), toWidth: labelWidth),
                row: row,
                column: rect.column + 2, style: theme.text)
            let durationText =
                entry.isFailure
                ? "\(theme.glyphs.failed) failed"
                : entry.isSkipped ? "skipped" : Self.format(milliseconds: entry.durationMilliseconds)
            terminal.put(
                TextLayout.pad(durationText, toWidth: durationWidth, alignment: .right), row: row,
                column: rect.column + 2 + labelWidth, style: entry.isFailure ? theme.failure : theme.muted)
        }
    }

    /// A duration as `340 ms` or `1.2 s`.
    static func format(milliseconds: Int) -> String {
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
