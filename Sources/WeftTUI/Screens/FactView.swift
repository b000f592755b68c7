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

    /// `embedded · 12 ms · seen 3× · 42 facts`: both lines in one, for the compact layout.
    var compactLine: String {
        let source = "\(environment) · \(Timeline.format(milliseconds: latencyMilliseconds))"
        guard let seenCount, let historyCount else { return source + " · not recorded" }
        return source + " · seen \(seenCount)× · \(historyCount) \(historyCount == 1 ? "fact" : "facts")"
    }

    /// Draws the fact box and the lines under it, centred; the focus is the fact's first
    /// character. Compact: the box without padding, one line under it.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let compact = LayoutSize.isCompact(area)
        let width = min(area.width - (compact ? 2 : 4), 72)
        let padding = compact ? (rows: 0, columns: 1) : (rows: 1, columns: 2)
        let textWidth = width - 2 - 2 * padding.columns
        let infoLines: [(String, TextStyle)] =
            compact ? [(compactLine, theme.muted)] : [(sourceLine, theme.muted), (historyLine, theme.muted)]
        let notices = [degradedNotice, notice].compactMap(\.self)
        let below = (compact ? 0 : 1) + infoLines.count + notices.count  // gap, info, notices
        let chrome = 2 + 2 * padding.rows  // borders and padding
        let maxLines = max(1, area.height - (compact ? 0 : 2) - chrome - below)
        var lines = TextLayout.wrap(fact, toWidth: textWidth)
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = TextLayout.truncate(lines[maxLines - 1] + " …", toWidth: textWidth)
        }
        let boxHeight = lines.count + chrome
        let blockHeight = boxHeight + below
        var row = area.row + max(compact ? 0 : 1, (area.height - blockHeight) / 2)
        let box = Rect(row: row, column: area.column + (area.width - width) / 2, height: boxHeight, width: width)
        let inner = Box(title: "Cat fact").draw(in: box, on: terminal, theme: theme)
            .insetBy(rows: padding.rows, columns: padding.columns)
        for (offset, line) in lines.enumerated() {
            terminal.put(line, row: inner.row + offset, column: inner.column, style: theme.text)
        }
        row += boxHeight + (compact ? 0 : 1)
        for (line, style) in infoLines + notices.map({ ($0, theme.warning) }) {
            let fitted = TextLayout.truncate(line, toWidth: area.width - 2)
            terminal.put(
                fitted, row: row, column: TextLayout.centeredColumn(of: fitted, inWidth: area.width, from: area.column),
                style: style)
            row += 1
        }
        return FrameLayout(focus: CellPosition(row: inner.row, column: inner.column))
    }
}
