import WeftTerminal

/// A full-screen view: a pure function from view state to cells on a ``Terminal``.
///
/// Conforming types provide a title, key hints and a body; ``render(on:overlay:)`` adds
/// the shared chrome — the title bar on the top line, the key-hint bar on the bottom line —
/// and shows ``TooSmallNotice`` instead when the terminal is below 60×16.
protocol Screen: Sendable {
    /// The screen's name in the title bar, such as `Fact`.
    var title: String { get }
    /// The environment shown in the title bar, or `nil`.
    var environmentName: String? { get }
    /// The keys of this screen, for the key-hint bar (most important first).
    var keyHints: [KeyHint] { get }
    /// Draws the body into `area` (everything between the title and hint bars).
    @MainActor func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme)
}

extension Screen {
    /// Clears `terminal` and draws the whole screen; with `overlay`, the help box takes the
    /// body's place (half-covered boxes underneath would read as broken borders).
    ///
    /// On a terminal that cannot show Unicode, everything is drawn through an
    /// ``ASCIITerminal`` with ``Glyphs/ascii``.
    ///
    /// Does not flush: the frame loop flushes once per frame.
    @MainActor
    func render(on target: any Terminal, overlay: HelpOverlay? = nil) {
        let terminal: any Terminal = target.isUnicode ? target : ASCIITerminal(target)
        let theme = Theme(for: terminal)
        let size = terminal.size
        guard size.fits(TooSmallNotice.minimumSize) else {
            TooSmallNotice(size: size).draw(on: terminal, theme: theme)
            return
        }
        terminal.clear()
        TitleBar(environmentName: environmentName, screenTitle: title).draw(row: 0, on: terminal, theme: theme)
        let body = Rect(row: 1, column: 0, height: size.rows - 2, width: size.columns)
        if let overlay {
            overlay.draw(in: body, on: terminal, theme: theme)
            KeyHintBar(hints: overlay.keyHints).draw(row: size.rows - 1, on: terminal, theme: theme)
        } else {
            drawBody(in: body, on: terminal, theme: theme)
            KeyHintBar(hints: keyHints).draw(row: size.rows - 1, on: terminal, theme: theme)
        }
    }
}
