/// Why the terminal UI could not start.
public struct TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// Standard input or output is not a terminal (piped or redirected).
        case notATerminal
        /// ncurses could not open the terminal described by `TERM`.
        case cannotOpenTerminal(term: String)
        /// The terminal cannot place the cursor (`TERM=dumb`), so a full-screen UI cannot be drawn.
        case cannotPlaceCursor(term: String)
    }

    /// What went wrong.
    public var code: Code

    /// Creates an error.
    public init(_ code: Code) {
        self.code = code
    }

    /// What went wrong and how to fix it.
    public var description: String {
        switch code {
        case .notATerminal:
            "standard input and output must be a terminal for the interactive UI; "
                + "run `weft` in a terminal, or use `--plain` (or `--json`) when piping"
        case .cannotOpenTerminal(let term):
            "cannot open the terminal of type \"\(term)\"; "
                + "set TERM to a known type (for example `export TERM=xterm-256color`) or use `--plain`"
        case .cannotPlaceCursor(let term):
            "the terminal of type \"\(term)\" cannot place the cursor, which the full-screen app needs; "
                + "set TERM to your terminal's type (for example `export TERM=xterm-256color`) for the full-screen app"
        }
    }
}
