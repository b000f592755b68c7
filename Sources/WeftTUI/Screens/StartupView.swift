import WeftTerminal

/// The last start-up's critical chain (`:startup`): the steps that decided how long it took,
/// first to last, each with when it started and how long it ran. Making any other step faster
/// would not have made the start-up faster. Steps after ready (a health check, say) end the
/// chain when one ended last: they are marked, and the summary counts only the steps that
/// decided when weft was ready.
struct StartupView: Screen {
    /// One step of the chain.
    struct Link: Sendable, Hashable {
        /// The step's title.
        var title: String
        /// When it started, in milliseconds from the start of the run.
        var startMilliseconds: Int
        /// How long it ran, in milliseconds.
        var durationMilliseconds: Int
        /// Whether it failed.
        var isFailure: Bool
        /// Whether it ran after ready, off the first screen's path.
        var isAfterReady: Bool

        /// Creates a link.
        init(
            title: String, startMilliseconds: Int, durationMilliseconds: Int, isFailure: Bool = false,
            isAfterReady: Bool = false
        ) {
            self.title = title
            self.startMilliseconds = startMilliseconds
            self.durationMilliseconds = durationMilliseconds
            self.isFailure = isFailure
            self.isAfterReady = isAfterReady
        }
    }

    /// The environment of the run.
    var environment: String?
    /// The chain, first step first; empty before a run ended.
    var chain: [Link]
    /// How long the start-up took, in milliseconds: to ready, when the run got there.
    var totalMilliseconds: Int
    /// How many steps the run had.
    var stepCount: Int
    /// How many rows are scrolled out of view at the top.
    var scroll: Int

    /// Creates a view.
    init(environment: String?, chain: [Link], totalMilliseconds: Int, stepCount: Int, scroll: Int = 0) {
        self.environment = environment
        self.chain = chain
        self.totalMilliseconds = totalMilliseconds
        self.stepCount = stepCount
        self.scroll = scroll
    }

    /// `Start-up`.
    var title: String { "Start-up" }
    /// The environment of the run.
    var environmentName: String? { environment }
    /// Back, scroll, help, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .startup) }

    /// `3 of 7 steps decided the 412 ms start-up` (`3 of 7 steps: 412 ms` when `compact`), and
    /// `; 1 more ran after ready` (` (+1 after)`) when the chain goes on past ready.
    func summary(compact: Bool = false) -> String {
        let afterReady = chain.count(where: \.isAfterReady)
        let deciding = "\(chain.count - afterReady) of \(stepCount) steps"
        let time = Timeline.format(milliseconds: totalMilliseconds)
        if compact { return "\(deciding): \(time)" + (afterReady > 0 ? " (+\(afterReady) after)" : "") }
        return "\(deciding) decided the \(time) start-up"
            + (afterReady > 0 ? "; \(afterReady) more ran after ready" : "")
    }

    /// Rows the chain has in the box inside `area`.
    private func rows(in area: Rect) -> Int {
        max(1, area.height - 2 - 2)  // borders, summary and gap
    }

    /// The furthest the chain scrolls in a terminal of `size`.
    func maxScroll(in size: TerminalSize) -> Int {
        max(0, chain.count - rows(in: Rect(row: 1, column: 0, height: size.rows - 2, width: size.columns)))
    }

    /// Draws the summary and the chain in a box; the focus is the first step shown.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let box = area.insetBy(rows: 0, columns: 1)
        let inner = Box(title: "Critical chain").draw(in: box, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        guard !chain.isEmpty else {
            terminal.put("no start-up has ended yet", row: inner.row, column: inner.column, style: theme.muted)
            return FrameLayout(topLeftOf: inner)
        }
        let compact = LayoutSize.isCompact(area)
        let heading = summary(compact: compact)
        terminal.put(
            TextLayout.truncate(heading, toWidth: inner.width), row: inner.row, column: inner.column,
            style: theme.accent)
        let rows = rows(in: area)
        let first = min(max(0, scroll), max(0, chain.count - rows))
        let timeWidth = 9
        // Compact: the duration alone, where the start too would leave the title a few letters.
        let startWidth = compact ? 0 : timeWidth + 1
        let titleWidth = max(4, inner.width - 2 - startWidth - (timeWidth + 1))
        for (offset, link) in chain.dropFirst(first).prefix(rows).enumerated() {
            let row = inner.row + 2 + offset
            terminal.put(theme.glyphs.pointer, row: row, column: inner.column, style: theme.accent)
            let title = link.isAfterReady ? "\(link.title) (after ready)" : link.title
            terminal.put(
                TextLayout.pad(title, toWidth: titleWidth), row: row, column: inner.column + 2,
                style: link.isFailure ? theme.failure : link.isAfterReady ? theme.muted : theme.text)
            if !compact {
                let start = "+" + Timeline.format(milliseconds: link.startMilliseconds)
                terminal.put(
                    TextLayout.pad(start, toWidth: timeWidth, alignment: .right), row: row,
                    column: inner.column + 2 + titleWidth + 1, style: theme.muted)
            }
            let duration =
                link.isFailure
                ? "\(theme.glyphs.failed) failed" : Timeline.format(milliseconds: link.durationMilliseconds)
            terminal.put(
                TextLayout.pad(duration, toWidth: timeWidth, alignment: .right), row: row,
                column: inner.column + 2 + titleWidth + startWidth + 1,
                style: link.isFailure ? theme.failure : link.isAfterReady ? theme.muted : theme.success)
        }
        if chain.count > rows {
            ScrollMark(first: first, shown: min(rows, chain.count - first), total: chain.count)
                .draw(on: box, on: terminal, theme: theme)
        }
        return FrameLayout(focus: CellPosition(row: inner.row + 2, column: inner.column + 2))
    }
}
