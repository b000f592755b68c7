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

    /// Creates a diagnostics view.
    init(environment: String?, registrations: [Registration], timeline: [Timeline.Entry]) {
        self.environment = environment
        self.registrations = registrations
        self.timeline = timeline
    }

    /// `Diagnostics`.
    var title: String { "Diagnostics" }
    /// The environment of the last run.
    var environmentName: String? { environment }
    /// Back, help, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .diagnostics) }

    /// Draws the registrations box above the timeline box.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) {
        let content = area.insetBy(rows: 0, columns: 1)
        let registrationsHeight = min(registrations.count + 3, max(5, content.height / 2))
        let top = Rect(row: content.row, column: content.column, height: registrationsHeight, width: content.width)
        let bottom = Rect(row: top.bottom, column: content.column, height: content.height - registrationsHeight, width: content.width)

        let resolvedCount = registrations.filter(\.isResolved).count
        let table = Box(title: "Container · \(registrations.count) registrations, \(resolvedCount) resolved")
            .draw(in: top, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        drawRegistrations(in: table, on: terminal, theme: theme)

        let timelineArea = Box(title: "Last run").draw(in: bottom, on: terminal, theme: theme).insetBy(rows: 0, columns: 1)
        if timeline.isEmpty {
            terminal.put("no run recorded yet", row: timelineArea.row, column: timelineArea.column, style: theme.muted)
        } else {
            Timeline(entries: timeline).draw(in: timelineArea, on: terminal, theme: theme)
        }
    }

    @MainActor
    private func drawRegistrations(in rect: Rect, on terminal: any Terminal, theme: Theme) {
        guard rect.height >= 1 else { return }
        let lifetimeWidth = 12
        let resolvedWidth = 10
        let nameWidth = max(4, rect.width - lifetimeWidth - resolvedWidth - 2)
        let header = TextLayout.pad("registration", toWidth: nameWidth) + " " + TextLayout.pad("lifetime", toWidth: lifetimeWidth) + " " + "resolved"
        terminal.put(header, row: rect.row, column: rect.column, style: theme.accent)
        let rows = rect.height - 1
        let overflow = registrations.count > rows
        let shown = registrations.prefix(overflow ? max(0, rows - 1) : rows)
        for (offset, registration) in shown.enumerated() {
            let row = rect.row + 1 + offset
            terminal.put(TextLayout.pad(registration.name, toWidth: nameWidth), row: row, column: rect.column, style: theme.text)
            terminal.put(TextLayout.pad(registration.lifetime, toWidth: lifetimeWidth), row: row, column: rect.column + nameWidth + 1, style: theme.muted)
            let resolved = registration.isResolved ? "✓ yes" : "· no"
            terminal.put(resolved, row: row, column: rect.column + nameWidth + lifetimeWidth + 2, style: registration.isResolved ? theme.success : theme.muted)
        }
        if overflow {
            terminal.put("+\(registrations.count - shown.count) more", row: rect.row + rect.height - 1, column: rect.column, style: theme.muted)
        }
    }
}
