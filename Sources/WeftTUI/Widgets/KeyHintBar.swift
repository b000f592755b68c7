import WeftTerminal

/// The bottom line of every screen: `n next  e environment  ? help  q quit`, keys emphasised.
///
/// When the hints do not fit the width, the bar keeps `?` (help lists every key) and `q`
/// (quitting is never hidden), and from the others, in order, those that still fit; the rest
/// are in help. A click on a hint does what its key does.
struct KeyHintBar: Sendable, Hashable {
    /// The hints, most important first.
    var hints: [KeyHint]

    /// Creates a bar.
    init(hints: [KeyHint]) {
        self.hints = hints
    }

    /// The hints that fit in `width` cells, in their order.
    func visibleHints(width: Int) -> [KeyHint] {
        guard Self.width(of: hints) > width else { return hints }
        let pinned = hints.indices.filter { ["?", "q"].contains(hints[$0].key) }
        var room = width - Self.width(of: pinned.map { hints[$0] })
        var kept = Set(pinned)
        for index in hints.indices where !kept.contains(index) {
            let needed = Self.width(of: hints[index])
            if needed <= room {
                kept.insert(index)
                room -= needed
            }
        }
        let shown = hints.indices.filter(kept.contains).map { hints[$0] }
        return Self.width(of: shown) > width ? [] : shown
    }

    /// Draws the bar across the full width of `row`; returns where each hint with an action is.
    @MainActor
    @discardableResult
    func draw(row: Int, on terminal: any Terminal, theme: Theme) -> [FrameLayout.Target] {
        let width = terminal.size.columns
        terminal.put(String(repeating: " ", count: width), row: row, column: 0, style: theme.hintBar)
        var column = 1
        var targets: [FrameLayout.Target] = []
        for hint in visibleHints(width: width) {
            let start = column
            let keyText = " \(hint.key) "
            terminal.put(keyText, row: row, column: column, style: theme.hintKey)
            column += TextLayout.width(of: keyText)
            terminal.put(hint.label, row: row, column: column, style: theme.hintBar)
            column += TextLayout.width(of: hint.label)
            if let action = hint.action {
                targets.append(
                    FrameLayout.Target(
                        rect: Rect(row: row, column: start, height: 1, width: column - start), action: .key(action)))
            }
            column += 2
        }
        return targets
    }

    private static func width(of hint: KeyHint) -> Int {
        TextLayout.width(of: hint.key) + 2 + TextLayout.width(of: hint.label) + 2
    }

    private static func width(of hints: [KeyHint]) -> Int {
        1 + hints.reduce(0) { $0 + width(of: $1) }
    }
}
