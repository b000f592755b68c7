import WeftApp
import WeftTerminal

/// A ``Terminal`` that passes everything to another one with text turned into ASCII of the
/// same width (``ASCIITransliteration``), for terminals whose locale is not UTF-8.
///
/// ``Screen/render(on:overlay:)`` draws through it whenever ``Terminal/isUnicode`` is false,
/// so no screen has to remember to: a fact, an error message or a separator with `·` reaches
/// the terminal as ASCII, and boxes are drawn with `+-|`.
@MainActor
final class ASCIITerminal: Terminal {
    /// The terminal drawn on.
    let base: any Terminal

    /// Wraps `base`.
    init(_ base: any Terminal) {
        self.base = base
    }

    var size: TerminalSize { base.size }
    var isMonochrome: Bool { base.isMonochrome }
    /// Always `false`: text reaches ``base`` as ASCII.
    var isUnicode: Bool { false }
    var interruption: Interruption? { base.interruption }

    func clear() { base.clear() }

    /// Writes `text` in ASCII, each character taking the cells it would have taken.
    func put(_ text: String, row: Int, column: Int, style: TextStyle) {
        base.put(ASCIITransliteration.ascii(text), row: row, column: column, style: style)
    }

    /// Draws the box with `+`, `-` and `|`: a terminal outside a UTF-8 locale may not switch
    /// to its line-drawing set (tmux then shows `lqqk`), while these show everywhere.
    func drawBox(_ rect: Rect, style: TextStyle) {
        guard rect.height >= 2, rect.width >= 2 else { return }
        let edge = "+" + String(repeating: "-", count: rect.width - 2) + "+"
        base.put(edge, row: rect.row, column: rect.column, style: style)
        base.put(edge, row: rect.bottom - 1, column: rect.column, style: style)
        for row in (rect.row + 1)..<(rect.bottom - 1) {
            base.put("|", row: row, column: rect.column, style: style)
            base.put("|", row: row, column: rect.right - 1, style: style)
        }
    }
    func flush() { base.flush() }
    func placeCursor(at position: CellPosition, visible: Bool) { base.placeCursor(at: position, visible: visible) }
    func readKey() -> Key { base.readKey() }
    func copyToClipboard(_ text: String) { base.copyToClipboard(text) }
}
