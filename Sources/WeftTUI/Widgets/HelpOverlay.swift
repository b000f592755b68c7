import WeftTerminal

/// A centred box over the current screen listing its keys and what they do.
struct HelpOverlay: Sendable, Hashable {
    /// The box title.
    var title: String
    /// The keys, in display order.
    var entries: [KeyHint]

    /// Creates an overlay.
    init(title: String = "Help", entries: [KeyHint]) {
        self.title = title
        self.entries = entries
    }

    /// The hints shown in the bottom bar while the overlay is open: Esc, `?` and `q` close
    /// it; Ctrl-C still quits.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .help) }

    /// Draws the overlay centred in `area`, over whatever is there.
    @MainActor
    func draw(in area: Rect, on terminal: any Terminal, theme: Theme) {
        let keyWidth = entries.map { TextLayout.width(of: $0.key) }.max() ?? 1
        let labelWidth = entries.map { TextLayout.width(of: $0.label) }.max() ?? 1
        let width = min(area.width - 2, max(30, keyWidth + labelWidth + 8))
        let height = min(area.height, entries.count + 4)
        let rect = area.centered(height: height, width: width)
        let inner = Box(title: title).draw(in: rect, on: terminal, theme: theme)
        let listArea = inner.insetBy(rows: 1, columns: 2)
        for (offset, entry) in entries.prefix(max(0, listArea.height)).enumerated() {
            let row = listArea.row + offset
            terminal.put(
                TextLayout.pad(entry.key, toWidth: keyWidth, alignment: .right), row: row, column: listArea.column,
                style: theme.accent)
            terminal.put(
                TextLayout.truncate(entry.label, toWidth: listArea.width - keyWidth - 2), row: row,
                column: listArea.column + keyWidth + 2, style: theme.text)
        }
    }
}
