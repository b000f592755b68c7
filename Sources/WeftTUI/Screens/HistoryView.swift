import FactKit
import Foundation
import WeftTerminal

/// The history list: every fact shown, most recent first, with times seen, when and where;
/// the highlighted fact in full below the list.
struct HistoryView: Screen {
    /// The list's state.
    var panel: HistoryPanel
    /// The environment in use, for the title bar.
    var environment: String?

    /// Creates a history view.
    init(panel: HistoryPanel, environment: String?) {
        self.panel = panel
        self.environment = environment
    }

    /// `History`.
    var title: String { "History" }
    /// The environment in use.
    var environmentName: String? { environment }
    /// Move, open, back, help, quit; back, help, quit for an open entry.
    var keyHints: [KeyHint] { KeyMap.barHints(in: panel.isOpen ? .historyEntry : .history) }

    /// `2026-11-23 14:05`, in the local time zone.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "--" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }

    /// Draws the list box and the highlighted fact under it, or the open entry; the focus is
    /// the highlighted row (the fact, when open). Compact: the times seen and the fact only,
    /// and no fact under the list (Enter opens it).
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let compact = LayoutSize.isCompact(area)
        let content = area.insetBy(rows: 0, columns: 1)
        if panel.isOpen, let entry = panel.selected {
            return drawOpen(entry, in: content, compact: compact, on: terminal, theme: theme)
        }
        let entries = panel.entries
        let detailHeight = compact ? 0 : 4  // gap and up to three lines of the highlighted fact
        let box = Rect(
            row: content.row, column: content.column, height: max(4, content.height - detailHeight),
            width: content.width)
        let title: String
        switch panel.content {
        case .loading: title = "History"
        case .loaded(let entries):
            let count = "\(entries.count) \(entries.count == 1 ? "fact" : "facts")"
            title = compact ? "History · \(count)" : "History · \(count), most recent first"
        case .failed: title = "History"
        }
        let inner = Box(title: title).draw(in: box, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        var layout = FrameLayout(topLeftOf: inner)
        switch panel.content {
        case .loading:
            terminal.put("reading the history…", row: inner.row, column: inner.column, style: theme.muted)
            return layout
        case .failed(let reason):
            for (offset, line) in TextLayout.wrap(reason, toWidth: inner.width).prefix(inner.height).enumerated() {
                terminal.put(line, row: inner.row + offset, column: inner.column, style: theme.failure)
            }
            return layout
        case .loaded(let entries) where entries.isEmpty:
            for (offset, line) in TextLayout.wrap(
                "No facts yet: every fact weft shows is recorded here.", toWidth: inner.width
            ).prefix(inner.height).enumerated() {
                terminal.put(line, row: inner.row + offset, column: inner.column, style: theme.muted)
            }
            return layout
        case .loaded:
            break
        }
        let whenWidth = compact ? 0 : 16
        let timesWidth = compact ? 4 : 7
        let environmentWidth =
            compact ? 0 : min(12, max(11, entries.map { TextLayout.width(of: $0.environment) }.max() ?? 0))
        let factWidth = max(4, inner.width - 2 - whenWidth - timesWidth - environmentWidth - (compact ? 1 : 3))
        let header =
            compact
            ? "  " + TextLayout.pad("seen", toWidth: timesWidth) + " fact"
            : "  " + TextLayout.pad("last seen", toWidth: whenWidth) + " " + TextLayout.pad("seen", toWidth: timesWidth)
                + " " + TextLayout.pad("environment", toWidth: environmentWidth) + " fact"
        terminal.put(header, row: inner.row, column: inner.column, style: theme.accent)
        let rows = max(1, inner.height - 1)
        // Scroll as MenuList does: from where the list started, as far as the highlight needs.
        let first = panel.position.firstVisible(rows: rows)
        layout.listTop = first
        for (offset, index) in (first..<min(entries.count, first + rows)).enumerated() {
            let entry = entries[index]
            let isSelected = index == panel.position.index
            let times = entry.timesSeen == 1 ? "1×" : "\(entry.timesSeen)×"
            var line = (isSelected ? theme.glyphs.pointer : " ") + " "
            if !compact { line += TextLayout.pad(Self.format(entry.lastSeen), toWidth: whenWidth) + " " }
            line += TextLayout.pad(times, toWidth: timesWidth) + " "
            if !compact {
                line +=
                    TextLayout.pad(
                        TextLayout.truncate(entry.environment, toWidth: environmentWidth), toWidth: environmentWidth)
                    + " "
            }
            line += TextLayout.truncate(entry.text, toWidth: factWidth)
            let row = inner.row + 1 + offset
            terminal.put(
                TextLayout.pad(line, toWidth: inner.width), row: row, column: inner.column,
                style: isSelected ? theme.selection : theme.text)
            layout.targets.append(
                FrameLayout.Target(
                    rect: Rect(row: row, column: inner.column, height: 1, width: inner.width), action: .row(index)))
            if isSelected { layout.focus = CellPosition(row: row, column: inner.column + 2) }
        }
        if entries.count > rows {
            ScrollMark(
                hiddenAbove: first > 0, hiddenBelow: first + rows < entries.count,
                text: "\(panel.position.index + 1)/\(entries.count)"
            ).draw(on: box, on: terminal, theme: theme)
        }
        if detailHeight > 0, let entry = panel.selected {
            let lines = TextLayout.wrap(entry.text, toWidth: content.width - 4).prefix(detailHeight - 1)
            for (offset, line) in lines.enumerated() {
                terminal.put(line, row: box.bottom + 1 + offset, column: content.column + 2, style: theme.text)
            }
        }
        return layout
    }

    /// The open entry: the whole fact in a box, then when, how often and where it was seen.
    @MainActor
    private func drawOpen(
        _ entry: HistoryEntry, in content: Rect, compact: Bool, on terminal: any Terminal, theme: Theme
    ) -> FrameLayout {
        let inner = Box(title: "Fact \(panel.position.index + 1) of \(panel.entries.count)")
            .draw(in: content, on: terminal, theme: theme).insetBy(rows: compact ? 0 : 1, columns: compact ? 1 : 2)
        let times = entry.timesSeen == 1 ? "once" : "\(entry.timesSeen) times"
        let about = "seen \(times), last \(Self.format(entry.lastSeen)) in \(entry.environment)"
        let aboutLines = TextLayout.wrap(about, toWidth: inner.width)
        var lines = TextLayout.wrap(entry.text, toWidth: inner.width)
        let room = max(1, inner.height - aboutLines.count - 1)
        if lines.count > room {
            lines = Array(lines.prefix(room))
            lines[room - 1] = TextLayout.truncate(lines[room - 1] + " …", toWidth: inner.width)
        }
        for (offset, line) in lines.enumerated() {
            terminal.put(line, row: inner.row + offset, column: inner.column, style: theme.text)
        }
        for (offset, line) in aboutLines.prefix(max(0, inner.height - lines.count - 1)).enumerated() {
            terminal.put(line, row: inner.row + lines.count + 1 + offset, column: inner.column, style: theme.muted)
        }
        return FrameLayout(focus: CellPosition(row: inner.row, column: inner.column))
    }
}
