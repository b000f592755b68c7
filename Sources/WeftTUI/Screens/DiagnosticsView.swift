import WeftTerminal

/// The diagnostics screen: the container's registrations (lifetime, resolved yet) and the
/// last initialization run as a timeline.
struct DiagnosticsView: Screen {
    /// One container registration.
    struct Registration: Sendable, Hashable {
        /// The registered type or key.
        var name: String
        /// Its lifetime, such as `singleton` or `transient`.
        var lifetime: String
        /// Whether it has been resolved yet.
        var isResolved: Bool

        /// Creates a registration row.
        init(name: String, lifetime: String, isResolved: Bool) {
            self.name = name
            self.lifetime = lifetime
            self.isResolved = isResolved
        }
    }

    /// The environment of the last run.
    var environment: String?
    /// The registrations, in display order.
    var registrations: [Registration]
    /// The last run's steps.
    var timeline: [Timeline.Entry]
    /// How many rows both lists are scrolled (each stops at its own end).
    var scroll: Int

    /// Creates a diagnostics view.
    init(environment: String?, registrations: [Registration], timeline: [Timeline.Entry], scroll: Int = 0) {
        self.environment = environment
        self.registrations = registrations
        self.timeline = timeline
        self.scroll = scroll
    }

    /// The two boxes in `area`: registrations on top, the timeline below.
    private func boxes(in area: Rect) -> (top: Rect, bottom: Rect) {
        let content = area.insetBy(rows: 0, columns: 1)
        let registrationsHeight = min(registrations.count + 3, max(5, content.height / 2))
        let top = Rect(row: content.row, column: content.column, height: registrationsHeight, width: content.width)
        let bottom = Rect(
            row: top.bottom, column: content.column, height: content.height - registrationsHeight, width: content.width)
        return (top, bottom)
    }

    /// Rows of registrations and of timeline entries that do not fit in a terminal of `size`.
    private func overflow(in area: Rect) -> (registrations: Int, timeline: Int) {
        let (top, bottom) = boxes(in: area)
        let registrationRows = max(0, top.height - 2 - 1)  // borders, header
        // Borders, and the time axis under the bars (the compact list has none).
        let timelineRows = max(0, bottom.height - 2 - (LayoutSize.isCompact(area) ? 0 : 1))
        return (max(0, registrations.count - registrationRows), max(0, timeline.count - timelineRows))
    }

    /// The furthest the lists scroll in a terminal of `size`.
    func maxScroll(in size: TerminalSize) -> Int {
        let area = Rect(row: 1, column: 0, height: size.rows - 2, width: size.columns)
        let hidden = overflow(in: area)
        return max(hidden.registrations, hidden.timeline)
    }

    /// `Diagnostics`.
    var title: String { "Diagnostics" }
    /// The environment of the last run.
    var environmentName: String? { environment }
    /// Back, help, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .diagnostics) }

    /// Draws the registrations box above the timeline box; the focus is the first
    /// registration shown. Compact: the last run as a list without bars.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let compact = LayoutSize.isCompact(area)
        let (top, bottom) = boxes(in: area)
        let hidden = overflow(in: area)
        let registrationsFirst = min(max(0, scroll), hidden.registrations)
        let timelineFirst = min(max(0, scroll), hidden.timeline)

        let resolvedCount = registrations.filter(\.isResolved).count
        let heading =
            compact
            ? "Container · \(registrations.count), \(resolvedCount) resolved"
            : "Container · \(registrations.count) registrations, \(resolvedCount) resolved"
        let table = Box(title: heading)
            .draw(in: top, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        drawRegistrations(from: registrationsFirst, in: table, compact: compact, on: terminal, theme: theme)
        drawScrollState(
            first: registrationsFirst, hidden: hidden.registrations, total: registrations.count, box: top, on: terminal,
            theme: theme)

        let failed = timeline.filter(\.isFailure).count
        var title = failed > 0 ? "Last run · \(theme.glyphs.failed) \(failed) failed" : "Last run"
        if timeline.contains(where: \.isCritical) { title += " · \(theme.glyphs.pointer) critical chain" }
        let timelineArea = Box(title: title).draw(in: bottom, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        if timeline.isEmpty {
            terminal.put("no run recorded yet", row: timelineArea.row, column: timelineArea.column, style: theme.muted)
        } else {
            if compact {
                Timeline(entries: timeline).drawList(in: timelineArea, from: timelineFirst, on: terminal, theme: theme)
            } else {
                Timeline(entries: timeline).draw(in: timelineArea, from: timelineFirst, on: terminal, theme: theme)
            }
            drawScrollState(
                first: timelineFirst, hidden: hidden.timeline, total: timeline.count, box: bottom, on: terminal,
                theme: theme)
        }
        return FrameLayout(focus: CellPosition(row: table.row + (registrations.isEmpty ? 0 : 1), column: table.column))
    }

    /// `▲▼ 3-8 of 12` in the box's bottom border when its list does not fit.
    @MainActor
    private func drawScrollState(
        first: Int, hidden: Int, total: Int, box: Rect, on terminal: any Terminal, theme: Theme
    ) {
        guard hidden > 0 else { return }
        ScrollMark(first: first, shown: total - hidden, total: total) { "\($0), ↑↓ scroll" }
            .draw(on: box, on: terminal, theme: theme)
    }

    @MainActor
    private func drawRegistrations(
        from first: Int, in rect: Rect, compact: Bool, on terminal: any Terminal, theme: Theme
    ) {
        guard rect.height >= 1 else { return }
        let lifetimeWidth = compact ? 9 : 12
        let resolvedWidth = compact ? 8 : 10
        let nameWidth = max(4, rect.width - lifetimeWidth - resolvedWidth - 2)
        let header =
            TextLayout.pad("registration", toWidth: nameWidth) + " "
            + TextLayout.pad("lifetime", toWidth: lifetimeWidth) + " " + "resolved"
        terminal.put(header, row: rect.row, column: rect.column, style: theme.accent)
        let rows = max(0, rect.height - 1)
        let shown = registrations.dropFirst(first).prefix(rows)
        for (offset, registration) in shown.enumerated() {
            let row = rect.row + 1 + offset
            terminal.put(
                TextLayout.pad(registration.name, toWidth: nameWidth), row: row, column: rect.column, style: theme.text)
            terminal.put(
                TextLayout.pad(registration.lifetime, toWidth: lifetimeWidth), row: row,
                column: rect.column + nameWidth + 1, style: theme.muted)
            let resolved = registration.isResolved ? "\(theme.glyphs.done) yes" : "\(theme.glyphs.pending) no"
            terminal.put(
                resolved, row: row, column: rect.column + nameWidth + lifetimeWidth + 2,
                style: registration.isResolved ? theme.success : theme.muted)
        }
    }
}
