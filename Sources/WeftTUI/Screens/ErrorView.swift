import WeftTerminal
/// The screen shown when initialization failed: which step, in which phase, the error in a
/// person's words, a hint what to do, and how long the run took.
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

    /// Creates an error view.
    init(environment: String, stepTitle: String, phase: String, message: String, hint: String?, elapsedMilliseconds: Int) {
        self.environment = environment
        self.stepTitle = stepTitle
        self.phase = phase
        self.message = message
        self.hint = hint
        self.elapsedMilliseconds = elapsedMilliseconds
    }

    /// `Error`.
    var title: String { "Error" }
    /// The environment that failed.
    var environmentName: String? { environment }
    /// Retry, environment, details, help, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .error(environment: environment)) }

    /// `phase async · failed after 1.2 s`.
    var detailLine: String {
        "phase \(phase) · failed after \(Timeline.format(milliseconds: elapsedMilliseconds))"
    }

    /// Draws the failure box, centred.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) {
        let width = min(area.width - 4, 72)
        let textWidth = width - 6
        var content: [(String, TextStyle)] = [
            (TextLayout.truncate("✗ " + stepTitle, toWidth: textWidth), theme.failure),
            (TextLayout.truncate(detailLine, toWidth: textWidth), theme.muted),
            ("", theme.text),
        ]
        let hintLines = hint.map { TextLayout.wrap("Hint: " + $0, toWidth: textWidth) } ?? []
        let maxLines = max(4, area.height - 2 - 4)
        let messageRoom = max(1, maxLines - content.count - (hintLines.isEmpty ? 0 : hintLines.count + 1))
        var messageLines = TextLayout.wrap(message, toWidth: textWidth)
        if messageLines.count > messageRoom {
            messageLines = Array(messageLines.prefix(messageRoom))
            messageLines[messageRoom - 1] = TextLayout.truncate(messageLines[messageRoom - 1] + " …", toWidth: textWidth)
        }
        content += messageLines.map { ($0, theme.text) }
        if !hintLines.isEmpty {
            content.append(("", theme.text))
            content += hintLines.map { ($0, theme.warning) }
        }
        content = Array(content.prefix(maxLines))
        let boxHeight = content.count + 4
        let row = area.row + max(1, (area.height - boxHeight) / 2)
        let box = Rect(row: row, column: area.column + (area.width - width) / 2, height: boxHeight, width: width)
        let inner = Box(title: "Initialization failed", isFailure: true).draw(in: box, on: terminal, theme: theme).insetBy(rows: 1, columns: 2)
        for (offset, (line, style)) in content.enumerated() {
            terminal.put(line, row: inner.row + offset, column: inner.column, style: style)
        }
    }
}
