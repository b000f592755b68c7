import WeftTerminal

/// The command line on the bottom row: `:` and the text typed, the caret where typing goes,
/// and a line above it for completions or a problem.
struct CommandLineView: Sendable, Hashable {
    /// The prompt's state.
    var prompt: CommandPrompt

    /// Creates a view of `prompt`.
    init(prompt: CommandPrompt) {
        self.prompt = prompt
    }

    /// Draws the prompt across `row` and its message on the row above; returns the caret's
    /// cell, where the cursor goes.
    @MainActor
    func draw(row: Int, on terminal: any Terminal, theme: Theme) -> CellPosition {
        let width = terminal.size.columns
        if let message = prompt.message, row > 0 {
            // Up to three rows: a problem ends with what to type instead, which must show.
            let room = max(1, width - 2)
            let wrapped = TextLayout.width(of: message) <= room ? [message] : TextLayout.wrap(message, toWidth: room)
            let lines = Array(wrapped.prefix(min(3, row)))
            for (offset, line) in lines.enumerated() {
                terminal.put(
                    TextLayout.pad(" " + line, toWidth: width), row: row - lines.count + offset, column: 0,
                    style: prompt.isProblem ? theme.failure : theme.hintBar)
            }
        }
        terminal.put(String(repeating: " ", count: width), row: row, column: 0, style: theme.text)
        terminal.put(":", row: row, column: 0, style: theme.accent)
        // Keep the caret in view: the text scrolls left once it reaches the right edge.
        let characters = Array(prompt.text)
        let caret = min(max(0, prompt.caret), characters.count)
        let room = max(1, width - 2)
        var first = 0
        while first < caret, TextLayout.width(of: String(characters[first..<caret])) >= room { first += 1 }
        let shown = TextLayout.prefix(String(characters[first...]), fittingWidth: room)
        terminal.put(shown, row: row, column: 1, style: theme.text)
        return CellPosition(row: row, column: 1 + TextLayout.width(of: String(characters[first..<caret])))
    }
}
