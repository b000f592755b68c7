import WeftTerminal

/// The main screen: the fact boxed and word-wrapped, where it came from, and history counts.
struct FactView: Screen {
    /// The fact text.
    var fact: String
    /// The environment it came from.
    var environment: String
    /// How long fetching it took, in milliseconds.
    var latencyMilliseconds: Int
    /// How many times this fact has been shown; `nil` when it was not recorded.
    var seenCount: Int?
    /// How many distinct facts the history holds; `nil` when the fact was not recorded.
    var historyCount: Int?
    /// A transient line under the counts, such as `fetching the next fact…`, or `nil`.
    var notice: String?
    /// A line that stays while the app runs degraded, such as `history unavailable — r retries`.
    var degradedNotice: String?

    /// Creates a fact view.
    init(
        fact: String, environment: String, latencyMilliseconds: Int, seenCount: Int?, historyCount: Int?,
        notice: String? = nil, degradedNotice: String? = nil
    ) {
        self.fact = fact
        self.environment = environment
        self.latencyMilliseconds = latencyMilliseconds
        self.seenCount = seenCount
        self.historyCount = historyCount
        self.notice = notice
        self.degradedNotice = degradedNotice
    }

    /// `Fact`.
    var title: String { "Fact" }
    /// The environment the fact came from.
    var environmentName: String? { environment }
    /// Next, environment, diagnostics, help, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .main) }

    /// `environment embedded · fetched in 12 ms`.
    var sourceLine: String {
        "environment \(environment) · fetched in \(Timeline.format(milliseconds: latencyMilliseconds))"
    }

    /// `seen 3 times · 42 facts in history`, or `not recorded` without a history.
    var historyLine: String {
        guard let seenCount, let historyCount else { return "not recorded" }
        let times = seenCount == 1 ? "time" : "times"
        let facts = historyCount == 1 ? "fact" : "facts"
        return "seen \(seenCount) \(times) · \(historyCount) \(facts) in history"
    }

    /// Draws the fact box and the lines under it, centred.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) {
        let width = min(area.width - 4, 72)
        let textWidth = width - 6
        let below = 3 + (notice == nil ? 0 : 1) + (degradedNotice == nil ? 0 : 1)  // gap, source, history, notices
        let maxLines = max(1, area.height - 2 - 4 - below)
        var lines = TextLayout.wrap(fact, toWidth: textWidth)
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = TextLayout.truncate(lines[maxLines - 1] + " …", toWidth: textWidth)
        }
        let boxHeight = lines.count + 4
        let blockHeight = boxHeight + below
        var row = area.row + max(1, (area.height - blockHeight) / 2)
        let box = Rect(row: row, column: area.column + (area.width - width) / 2, height: boxHeight, width: width)
        let inner = Box(title: "Cat fact").draw(in: box, on: terminal, theme: theme).insetBy(rows: 1, columns: 2)
        for (offset, line) in lines.enumerated() {
            terminal.put(line, row: inner.row + offset, column: inner.column, style: theme.text)
        }
        row += boxHeight + 1
        for (line, style) in [(sourceLine, theme.muted), (historyLine, theme.muted)] {
            let fitted = TextLayout.truncate(line, toWidth: area.width - 2)
            terminal.put(
                fitted, row: row, column: TextLayout.centeredColumn(of: fitted, inWidth: area.width, from: area.column),
                style: style)
            row += 1
        }
        for notice in [degradedNotice, notice].compactMap(\.self) {
            let fitted = TextLayout.truncate(notice, toWidth: area.width - 2)
            terminal.put(
                fitted, row: row, column: TextLayout.centeredColumn(of: fitted, inWidth: area.width, from: area.column),
                style: theme.warning)
            row += 1
        }
    }
}
