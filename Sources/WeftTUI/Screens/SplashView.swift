import WeftTerminal

/// The start-up screen: logo, environment, every initialization step with its phase and
/// live state, and overall progress.
struct SplashView: Screen {
    /// The state of one step.
    enum StepState: Sendable, Hashable {
        /// Not started yet.
        case pending
        /// Running; `frame` animates the spinner.
        case running(frame: Int)
        /// Retrying: attempt `attempt` of `of` is running or about to; `frame` animates.
        case retrying(frame: Int, attempt: Int, of: Int)
        /// Finished after `milliseconds`.
        case done(milliseconds: Int)
        /// Did not run: an optional step it needs failed.
        case skipped
        /// Failed.
        case failed
    }

    /// One initialization step.
    struct Step: Sendable, Hashable {
        /// What the step does, such as `Open history database`.
        var title: String
        /// Its phase, such as `pre-sync`, `async` or `post-sync`.
        var phase: String
        /// Its state.
        var state: StepState

        /// Creates a step row.
        init(title: String, phase: String, state: StepState) {
            self.title = title
            self.phase = phase
            self.state = state
        }
    }

    /// The logo, one string per line (skipped when the terminal is too short for it).
    var logo: [String]
    /// The environment being initialized.
    var environment: String
    /// Which attempt at the environment this is; above 1 the heading says it is retrying.
    var attempt: Int
    /// The steps, in display order.
    var steps: [Step]

    /// Creates a splash view.
    init(logo: [String], environment: String, attempt: Int = 1, steps: [Step]) {
        self.logo = logo
        self.environment = environment
        self.attempt = attempt
        self.steps = steps
    }

    /// `Starting embedded…`, or `Retrying broken · attempt 2…`.
    var heading: String {
        attempt > 1 ? "Retrying \(environment) · attempt \(attempt)…" : "Starting \(environment)…"
    }

    /// The number of finished steps.
    var completedCount: Int {
        steps.filter { step in
            switch step.state {
            case .done, .skipped: true
            default: false
            }
        }.count
    }

    /// `Starting`.
    var title: String { attempt > 1 ? "Retrying" : "Starting" }
    /// The environment being initialized.
    var environmentName: String? { environment }
    /// Quit and help.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .splash) }

    /// Draws logo, heading, the step box and the progress bar, centred; the focus is the step
    /// in progress (the first not done). Compact: no logo, no gaps, no phase column.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let compact = LayoutSize.isCompact(area)
        let width = min(area.width - (compact ? 2 : 4), 64)
        let left = area.column + (area.width - width) / 2
        let available = area.height - (compact ? 0 : 2)
        let gap = compact ? 0 : 1
        let fixed = 1 + gap + 2 + gap + 1  // heading, gap, box border, gap, progress
        let stepRows = max(1, min(steps.count, available - fixed))
        let logoLines = !compact && logo.count + 1 <= available - fixed - stepRows ? logo : []
        let blockHeight = fixed + stepRows + (logoLines.isEmpty ? 0 : logoLines.count + 1)
        var row = area.row + max(compact ? 0 : 1, (area.height - blockHeight) / 2)

        let logoWidth = logoLines.map { TextLayout.width(of: $0) }.max() ?? 0
        for line in logoLines {
            terminal.put(
                line, row: row, column: area.column + max(0, (area.width - logoWidth) / 2), style: theme.accent)
            row += 1
        }
        if !logoLines.isEmpty { row += 1 }

        terminal.put(
            heading, row: row, column: TextLayout.centeredColumn(of: heading, inWidth: area.width, from: area.column),
            style: theme.text)
        row += 1 + gap

        let box = Rect(row: row, column: left, height: stepRows + 2, width: width)
        let inner = Box(title: "Initialization").draw(in: box, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        let firstActive = steps.firstIndex { if case .done = $0.state { false } else { true } } ?? 0
        let start = max(0, min(firstActive - 1, steps.count - stepRows))
        var focus = CellPosition(
            row: row - 1 - gap, column: TextLayout.centeredColumn(of: heading, inWidth: area.width, from: area.column))
        for (offset, step) in steps.dropFirst(start).prefix(stepRows).enumerated() {
            drawStep(step, row: inner.row + offset, in: inner, compact: compact, on: terminal, theme: theme)
            if start + offset == firstActive { focus = CellPosition(row: inner.row + offset, column: inner.column + 2) }
        }
        row += box.height + gap

        ProgressBar(completed: completedCount, total: steps.count, glyphs: theme.glyphs).draw(
            row: row, column: left, width: width, on: terminal, theme: theme)
        return FrameLayout(focus: focus)
    }

    @MainActor
    private func drawStep(
        _ step: Step, row: Int, in inner: Rect, compact: Bool, on terminal: any Terminal, theme: Theme
    ) {
        let phaseWidth = compact ? 0 : 10
        let stateWidth = 11
        let titleWidth = max(4, inner.width - 2 - 2 - phaseWidth - (compact ? 0 : 1) - stateWidth)
        let icon: String
        let iconStyle: TextStyle
        let stateText: String
        let stateStyle: TextStyle
        switch step.state {
        case .pending:
            (icon, iconStyle, stateText, stateStyle) = (theme.glyphs.pending, theme.muted, "pending", theme.muted)
        case .running(let frame):
            (icon, iconStyle, stateText, stateStyle) = (
                theme.isMonochrome ? Spinner.frame(frame, isMonochrome: true) : theme.glyphs.spinnerFrame(frame),
                theme.accent, "running", theme.accent
            )
        case .retrying(let frame, let attempt, let attempts):
            (icon, iconStyle, stateText, stateStyle) = (
                theme.isMonochrome ? Spinner.frame(frame, isMonochrome: true) : theme.glyphs.spinnerFrame(frame),
                theme.warning, "attempt \(attempt)/\(attempts)", theme.warning
            )
        case .skipped:
            (icon, iconStyle, stateText, stateStyle) = (theme.glyphs.pending, theme.muted, "skipped", theme.muted)
        case .done(let milliseconds):
            (icon, iconStyle, stateText, stateStyle) = (
                theme.glyphs.done, theme.success, Timeline.format(milliseconds: milliseconds), theme.success
            )
        case .failed:
            (icon, iconStyle, stateText, stateStyle) = (theme.glyphs.failed, theme.failure, "failed", theme.failure)
        }
        var column = inner.column
        terminal.put(icon, row: row, column: column, style: iconStyle)
        column += 2
        terminal.put(TextLayout.pad(step.title, toWidth: titleWidth), row: row, column: column, style: theme.text)
        column += titleWidth + 2
        if !compact {
            terminal.put(TextLayout.pad(step.phase, toWidth: phaseWidth), row: row, column: column, style: theme.muted)
            column += phaseWidth + 1
        }
        terminal.put(
            TextLayout.pad(stateText, toWidth: stateWidth, alignment: .right), row: row, column: column,
            style: stateStyle)
    }
}
