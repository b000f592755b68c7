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
    /// Move, back, help, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .history) }

    /// `2026-11-23 14:05`, in the local time zone.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "--" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }

    /// Draws the list box and the highlighted fact under it.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) {
        let content = area.insetBy(rows: 0, columns: 1)
        let entries = panel.entries
        let detailHeight = 4  // gap and up to three lines of the highlighted fact
        let box = Rect(
            row: content.row, column: content.column, height: max(4, content.height - detailHeight),
            width: content.width)
        let title: String
        switch panel.content {
        case .loading: title = "History"
        case .loaded(let entries):
            title = "History · \(entries.count) \(entries.count == 1 ? "fact" : "facts"), most recent first"
        case .failed: title = "History"
        }
        let inner = Box(title: title).draw(in: box, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        switch panel.content {
        case .loading:
            terminal.put("reading the history…", row: inner.row, column: inner.column, style: theme.muted)
            return
        case .failed(let reason):
            for (offset, line) in TextLayout.wrap(reason, toWidth: inner.width).prefix(inner.height).enumerated() {
                terminal.put(line, row: inner.row + offset, column: inner.column, style: theme.failure)
            }
            return
        case .loaded(let entries) where entries.isEmpty:
            terminal.put(
                "No facts yet: every fact weft shows is recorded here.", row: inner.row, column: inner.column,
                style: theme.muted)
            return
        case .loaded:
            break
        }
        let whenWidth = 16
        let timesWidth = 7
        let environmentWidth = min(12, max(11, entries.map { TextLayout.width(of: $0.environment) }.max() ?? 0))
        let factWidth = max(4, inner.width - 2 - whenWidth - timesWidth - environmentWidth - 3)
        let header =
            "  " + TextLayout.pad("last seen", toWidth: whenWidth) + " " + TextLayout.pad("seen", toWidth: timesWidth)
            + " "
            + TextLayout.pad("environment", toWidth: environmentWidth) + " fact"
        terminal.put(header, row: inner.row, column: inner.column, style: theme.accent)
        let rows = max(1, inner.height - 1)
        // Scroll as MenuList does: the highlighted row stays in view.
        let first = max(0, panel.position.index - rows + 1)
        for (offset, index) in (first..<min(entries.count, first + rows)).enumerated() {
            let entry = entries[index]
            let isSelected = index == panel.position.index
            let times = entry.timesSeen == 1 ? "1×" : "\(entry.timesSeen)×"
            let line =
                (isSelected ? theme.glyphs.pointer : " ") + " "
                + TextLayout.pad(Self.format(entry.lastSeen), toWidth: whenWidth) + " "
                + TextLayout.pad(times, toWidth: timesWidth) + " "
                + TextLayout.pad(
                    TextLayout.truncate(entry.environment, toWidth: environmentWidth), toWidth: environmentWidth)
                + " " + TextLayout.truncate(entry.text, toWidth: factWidth)
            terminal.put(
                TextLayout.pad(line, toWidth: inner.width), row: inner.row + 1 + offset, column: inner.column,
                style: isSelected ? theme.selection : theme.text)
        }
        if entries.count > rows {
            let above = first > 0 ? theme.glyphs.scrollUp : " "
            let below = first + rows < entries.count ? theme.glyphs.scrollDown : " "
            let label = " \(above)\(below) \(panel.position.index + 1)/\(entries.count) "
            terminal.put(
                label, row: box.bottom - 1, column: box.right - 2 - TextLayout.width(of: label), style: theme.warning)
        }
        if entries.indices.contains(panel.position.index) {
            let lines = TextLayout.wrap(entries[panel.position.index].text, toWidth: content.width - 4).prefix(
                detailHeight - 1)
            for (offset, line) in lines.enumerated() {
                terminal.put(line, row: box.bottom + 1 + offset, column: content.column + 2, style: theme.text)
            }
        }
    }
}
