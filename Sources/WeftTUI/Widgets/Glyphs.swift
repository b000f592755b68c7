/// The symbols widgets draw: Unicode on a UTF-8 terminal, ASCII everywhere else (`LANG=C`,
/// common in containers and over ssh), each of the same width so layouts stay the same.
///
/// | role | Unicode | ASCII |
/// |---|---|---|
/// | highlighted row | `›` | `>` |
/// | item in use | `●` | `*` |
/// | done, failed, pending | `✓` `✗` `·` | `+` `x` `.` |
/// | spinner | braille dots | `\|/-\\` |
/// | progress bar | `█` `░` | `#` `.` |
/// | scroll arrows | `▲` `▼` | `^` `v` |
struct Glyphs: Sendable, Hashable {
    /// Marks the highlighted row of a list.
    var pointer: String
    /// Marks the item in use.
    var current: String
    /// A finished step or a resolved service.
    var done: String
    /// A failed step.
    var failed: String
    /// A step not started yet, or a dotted time axis.
    var pending: String
    /// The filled part of a bar.
    var barFilled: String
    /// The empty part of a bar.
    var barEmpty: String
    /// More content above.
    var scrollUp: String
    /// More content below.
    var scrollDown: String
    /// Separates parts of a line, as in `weft · embedded`.
    var separator: String
    /// The spinner's frames.
    var spinner: [String]

    /// The Unicode symbols.
    static let unicode = Glyphs(
        pointer: "›", current: "●", done: "✓", failed: "✗", pending: "·", barFilled: "█", barEmpty: "░",
        scrollUp: "▲", scrollDown: "▼", separator: "·", spinner: Spinner.brailleFrames)
    /// The ASCII symbols.
    static let ascii = Glyphs(
        pointer: ">", current: "*", done: "+", failed: "x", pending: ".", barFilled: "#", barEmpty: ".",
        scrollUp: "^", scrollDown: "v", separator: "-", spinner: Spinner.asciiFrames)

    /// The symbols for a terminal that can (`true`) or cannot show Unicode.
    static func forUnicode(_ isUnicode: Bool) -> Glyphs { isUnicode ? .unicode : .ascii }

    /// The spinner glyph for animation frame `frame` (any integer; frames repeat).
    func spinnerFrame(_ frame: Int) -> String {
        let index = ((frame % spinner.count) + spinner.count) % spinner.count
        return spinner[index]
    }
}
