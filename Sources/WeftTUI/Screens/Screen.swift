import WeftTerminal

/// A full-screen view: a pure function from view state to cells on a ``Terminal``.
///
/// Conforming types provide a title, key hints and a body; ``render(on:overlay:commandLine:)``
/// adds the shared chrome — the title bar on the top line, the key-hint bar (or the command
/// line) on the bottom line — and shows ``TooSmallNotice`` instead when the terminal is below
/// 40×12. Between 40×12 and 60×16 bodies draw their compact layout (``LayoutSize``).
protocol Screen: Sendable {
    /// The screen's name in the title bar, such as `Fact`.
    var title: String { get }
    /// The environment shown in the title bar, or `nil`.
    var environmentName: String? { get }
    /// The keys of this screen, for the key-hint bar (most important first).
    var keyHints: [KeyHint] { get }
    /// Draws the body into `area` (everything between the title and hint bars) and says where
    /// its focus is and what its rows do when clicked.
    @MainActor func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout
}

extension Screen {
    /// Clears `terminal` and draws the whole screen; with `overlay`, the help box takes the
    /// body's place (half-covered boxes underneath would read as broken borders); with
    /// `commandLine`, the prompt takes the key bar's.
    ///
    /// On a terminal that cannot show Unicode, everything is drawn through an
    /// ``ASCIITerminal`` with ``Glyphs/ascii``.
    ///
    /// Does not flush: the frame loop flushes once per frame, after parking the cursor on the
    /// returned layout's focus.
    @MainActor
    @discardableResult
    func render(on target: any Terminal, overlay: HelpOverlay? = nil, commandLine: CommandLineView? = nil)
        -> FrameLayout
    {
        let terminal: any Terminal = target.isUnicode ? target : ASCIITerminal(target)
        let theme = Theme(for: terminal)
        let size = terminal.size
        guard size.fits(TooSmallNotice.minimumSize) else {
            return TooSmallNotice(size: size).draw(on: terminal, theme: theme)
        }
        terminal.clear()
        TitleBar(environmentName: environmentName, screenTitle: title).draw(row: 0, on: terminal, theme: theme)
        let body = Rect(row: 1, column: 0, height: size.rows - 2, width: size.columns)
        var layout: FrameLayout
        let hints: [KeyHint]
        if let overlay {
            layout = overlay.draw(in: body, on: terminal, theme: theme)
            hints = overlay.keyHints
        } else {
            layout = drawBody(in: body, on: terminal, theme: theme)
            hints = keyHints
        }
        if let commandLine {
            let prompt = commandLine.draw(row: size.rows - 1, on: terminal, theme: theme)
            // While typing, clicks do nothing: the prompt has the keys.
            layout = FrameLayout(focus: prompt, isTyping: true)
        } else {
            layout.targets += KeyHintBar(hints: hints).draw(row: size.rows - 1, on: terminal, theme: theme)
        }
        return layout
    }
}
