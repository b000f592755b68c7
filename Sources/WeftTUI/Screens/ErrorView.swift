import WeftTerminal

/// The screen shown when initialization failed: which step, in which phase, the error in a
/// person's words, a hint what to do, how long the run took and which attempt it was.
///
/// When the start-up ran out of time (``deadlineMilliseconds`` is set) the box reads
/// `Start-up ran out of time`, the step is the one that held it up, and the detail line says
/// it was still going at the deadline.
///
/// The message and hint scroll (↑↓, PgUp/PgDn, Home/End) when they do not fit, so the whole
/// text is readable at 60×16; the box's bottom border says where the view is.
struct ErrorView: Screen {
    /// The environment that failed to initialize.
    var environment: String
    /// The title of the failed step.
    var stepTitle: String
    /// The failed step's phase.
    var phase: String
    /// The error message.
    var message: String
    /// What to try next, such as "is the server running? try `weft serve --port 8089`".
    var hint: String?
    /// Time from the start of the run to the failure, in milliseconds.
    var elapsedMilliseconds: Int
    /// Which attempt at the environment failed (1 for the first run).
    var attempt: Int
    /// How many rows of the message and hint are scrolled out of view at the top.
    var scroll: Int
    /// The start-up's deadline in milliseconds when it passed; `nil` when a step failed.
    var deadlineMilliseconds: Int?

    /// Creates an error view.
    init(
        environment: String, stepTitle: String, phase: String, message: String, hint: String?, elapsedMilliseconds: Int,
        attempt: Int = 1, scroll: Int = 0, deadlineMilliseconds: Int? = nil
    ) {
        self.deadlineMilliseconds = deadlineMilliseconds
        self.environment = environment
        self.stepTitle = stepTitle
        self.phase = phase
        self.message = message
        self.hint = hint
        self.elapsedMilliseconds = elapsedMilliseconds
        self.attempt = attempt
        self.scroll = scroll
    }

    /// `Error`.
    var title: String { "Error" }
    /// The environment that failed.
    var environmentName: String? { environment }
    /// Retry, environment, details, scroll, help, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .error(environment: environment)) }

    /// The box's title: `Initialization failed`, or `Start-up ran out of time`.
    var heading: String { deadlineMilliseconds == nil ? "Initialization failed" : "Start-up ran out of time" }

    /// `phase async · failed after 1.2 s`, with ` · attempt 2` from the second attempt on; for
    /// a missed deadline `phase async · still going at the 1.0 s deadline`.
    var detailLine: String {
        let attemptText = attempt > 1 ? " · attempt \(attempt)" : ""
        if let deadlineMilliseconds {
            // In seconds with one decimal, as the setting and the message give it: `0.5 s`.
            let tenths = (deadlineMilliseconds + 50) / 100
            return "phase \(phase) · still going at the \(tenths / 10).\(tenths % 10) s deadline\(attemptText)"
        }
        return "phase \(phase) · failed after \(Timeline.format(milliseconds: elapsedMilliseconds))\(attemptText)"
    }

    /// How the box is laid out in `area`: its width, padding, the scrolling text and the rows
    /// it shows. Compact: no padding inside the box and no margin around it.
    private func layout(in area: Rect) -> (width: Int, padding: Int, lines: [(String, Bool)], visible: Int) {
        let compact = LayoutSize.isCompact(area)
        let width = min(area.width - (compact ? 2 : 4), 72)
        let padding = compact ? 0 : 1
        let textWidth = width - 2 - 2 * (padding + 1)
        var lines = TextLayout.wrap(message, toWidth: textWidth).map { ($0, false) }
        if let hint {
            lines.append(("", false))
            lines += TextLayout.wrap("Hint: " + hint, toWidth: textWidth).map { ($0, true) }
        }
        // Rows in the box: margin, borders and padding, step, detail, gap.
        let visible = max(1, min(lines.count, area.height - (compact ? 0 : 2) - 2 - 2 * padding - 3))
        return (width, padding, lines, visible)
    }

    /// The furthest the text scrolls in a terminal of `size`.
    func maxScroll(in size: TerminalSize) -> Int {
        let area = Rect(row: 1, column: 0, height: size.rows - 2, width: size.columns)
        let (_, _, lines, visible) = layout(in: area)
        return max(0, lines.count - visible)
    }

    /// Draws the failure box, centred; the focus is the first line of the message shown.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let (width, padding, lines, visible) = layout(in: area)
        let textWidth = width - 2 - 2 * (padding + 1)
        let first = min(max(0, scroll), max(0, lines.count - visible))
        let shown = lines[first..<min(lines.count, first + visible)]
        var content: [(String, TextStyle)] = [
            (TextLayout.truncate("\(theme.glyphs.failed) " + stepTitle, toWidth: textWidth), theme.failure),
            // Compact: without the word "phase", so that the time still fits.
            (
                TextLayout.truncate(
                    LayoutSize.isCompact(area) ? String(detailLine.dropFirst("phase ".count)) : detailLine,
                    toWidth: textWidth), theme.muted
            ),
            ("", theme.text),
        ]
        content += shown.map { ($0.0, $0.1 ? theme.warning : theme.text) }
        let boxHeight = content.count + 2 + 2 * padding
        let row = area.row + max(padding, (area.height - boxHeight) / 2)
        let box = Rect(row: row, column: area.column + (area.width - width) / 2, height: boxHeight, width: width)
        let inner = Box(title: heading, isFailure: true).draw(in: box, on: terminal, theme: theme)
            .insetBy(rows: padding, columns: 1 + padding)
        for (offset, (line, style)) in content.enumerated() {
            terminal.put(line, row: inner.row + offset, column: inner.column, style: style)
        }
        if lines.count > visible {
            ScrollMark(first: first, shown: shown.count, total: lines.count) { "lines \($0), ↑↓ scroll" }
                .draw(on: box, on: terminal, theme: theme)
        }
        return FrameLayout(focus: CellPosition(row: inner.row + 3, column: inner.column))
    }
}
