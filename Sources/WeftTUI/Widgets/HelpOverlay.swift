import WeftTerminal

/// A centred box over the current screen listing its keys and what they do, then the commands
/// of the command line; it scrolls when the terminal is too short for all of them.
struct HelpOverlay: Sendable, Hashable {
    /// The box title.
    var title: String
    /// The keys, in display order.
    var entries: [KeyHint]
    /// The commands, `:` then the command (``KeyHint/key``) and what it does.
    var commands: [KeyHint]
    /// How many lines are scrolled out of view at the top.
    var scroll: Int

    /// Creates an overlay.
    init(title: String = "Help", entries: [KeyHint], commands: [KeyHint] = [], scroll: Int = 0) {
        self.title = title
        self.entries = entries
        self.commands = commands
        self.scroll = scroll
    }

    /// The hints shown in the bottom bar while the overlay is open: Esc, `?` and `q` close
    /// it; Ctrl-C still quits.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .help) }

    /// Every line of the list: the keys, then a heading and the commands. `isHeading` marks
    /// the heading, drawn across both columns.
    private var lines: [(hint: KeyHint, isHeading: Bool)] {
        var lines = entries.map { ($0, false) }
        if !commands.isEmpty {
            lines.append((KeyHint("", "Commands: type : then one of these, Tab completes"), true))
            lines += commands.map { ($0, false) }
        }
        return lines
    }

    /// The width of the key column of the keys' section, and of the commands'.
    private var keyWidths: (keys: Int, commands: Int) {
        (
            entries.map { TextLayout.width(of: $0.key) }.max() ?? 1,
            commands.map { TextLayout.width(of: $0.key) }.max() ?? 1
        )
    }

    /// The box and the rows of the list inside it, in `area`.
    private func layout(in area: Rect) -> (box: Rect, list: Rect) {
        let keyWidth = max(keyWidths.keys, keyWidths.commands)
        let labelWidth = (entries + commands).map { TextLayout.width(of: $0.label) }.max() ?? 1
        let compact = LayoutSize.isCompact(area)
        let width = min(area.width - (compact ? 0 : 2), max(30, keyWidth + labelWidth + 8))
        let padding = compact ? 0 : 1
        let height = min(area.height, lines.count + 2 + 2 * padding)
        let box = area.centered(height: height, width: width)
        return (box, box.insetBy(rows: 1 + padding, columns: compact ? 1 : 2))
    }

    /// The furthest the list scrolls in `area`.
    func maxScroll(in area: Rect) -> Int {
        max(0, lines.count - max(1, layout(in: area).list.height))
    }

    /// Draws the overlay centred in `area`, over whatever is there; the focus is the first
    /// line shown.
    @MainActor
    func draw(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let widths = keyWidths
        let (box, listArea) = layout(in: area)
        Box(title: title).draw(in: box, on: terminal, theme: theme)
        let lines = self.lines
        let rows = max(0, listArea.height)
        let first = min(max(0, scroll), max(0, lines.count - rows))
        for (offset, line) in lines.dropFirst(first).prefix(rows).enumerated() {
            let row = listArea.row + offset
            let keyWidth = first + offset < entries.count ? widths.keys : widths.commands
            if line.isHeading {
                terminal.put(
                    TextLayout.truncate(line.hint.label, toWidth: listArea.width), row: row, column: listArea.column,
                    style: theme.muted)
                continue
            }
            terminal.put(
                TextLayout.pad(line.hint.key, toWidth: keyWidth, alignment: .right), row: row,
                column: listArea.column, style: theme.accent)
            terminal.put(
                TextLayout.truncate(line.hint.label, toWidth: listArea.width - keyWidth - 2), row: row,
                column: listArea.column + keyWidth + 2, style: theme.text)
        }
        if lines.count > rows, rows > 0 {
            ScrollMark(first: first, shown: rows, total: lines.count).draw(on: box, on: terminal, theme: theme)
        }
        return FrameLayout(focus: CellPosition(row: listArea.row, column: listArea.column))
    }
}
