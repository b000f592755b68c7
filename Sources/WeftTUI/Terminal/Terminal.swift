import WeftApp
import WeftTerminal

/// A character-cell screen the app draws on and reads keys from.
///
/// Two implementations exist: ``NCursesTerminal`` for a real terminal and ``ScreenBuffer``,
/// an in-memory grid for tests. Drawing is buffered until ``flush()``.
///
/// Contract:
/// - Coordinates are zero-based `(row, column)`; anything outside ``size`` is clipped,
///   never wrapped and never an error.
/// - ``put(_:row:column:style:)`` writes one line: a wide glyph (猫, most emoji) takes two
///   cells; a wide glyph that would straddle the right edge is not drawn; control characters
///   are not written.
/// - ``readKey()`` never blocks; it returns ``Key/none`` when no key is waiting.
///
/// ncurses is not thread-safe, so every call happens on the main actor.
@MainActor
protocol Terminal: AnyObject, Sendable {
    /// The current size in cells.
    var size: TerminalSize { get }
    /// Whether colour roles are ignored (`NO_COLOR`, `TERM=dumb`, or no colour support).
    var isMonochrome: Bool { get }
    /// Whether the terminal shows Unicode (a UTF-8 locale); when `false`, screens draw
    /// ASCII only (``ASCIITerminal``, ``Glyphs/ascii``).
    var isUnicode: Bool { get }
    /// A signal that asked the app to quit (SIGINT, SIGTERM), if one arrived.
    var interruption: Interruption? { get }

    /// Blanks the whole screen (takes effect at the next ``flush()``).
    func clear()
    /// Writes `text` on one line starting at `(row, column)`, clipped to the screen.
    func put(_ text: String, row: Int, column: Int, style: TextStyle)
    /// Draws a single-line box border around `rect` (its interior is left untouched).
    func drawBox(_ rect: Rect, style: TextStyle)
    /// Shows everything drawn since the last flush.
    func flush()
    /// Puts the terminal's cursor on `position` at the next ``flush()``: drawn when `visible`,
    /// hidden but still there otherwise, for screen readers and braille displays to follow.
    func placeCursor(at position: CellPosition, visible: Bool)
    /// The next waiting key, or ``Key/none``.
    func readKey() -> Key
    /// Asks the terminal to put `text` on the system clipboard (OSC 52); a terminal that
    /// does not support it ignores the request.
    func copyToClipboard(_ text: String)
}
