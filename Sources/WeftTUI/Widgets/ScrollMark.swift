import WeftTerminal

/// Where a list or text that does not fit its box is: `▲▼ 3-8 of 12` set into the box's bottom
/// border, right-aligned, `▲` while rows are hidden above and `▼` while rows are hidden below.
struct ScrollMark: Sendable, Hashable {
    /// Whether rows are hidden above the first one shown.
    var hiddenAbove: Bool
    /// Whether rows are hidden below the last one shown.
    var hiddenBelow: Bool
    /// What follows the arrows, such as `3-8 of 12` or `12/40`.
    var text: String
    /// A longer form, such as `lines 3-8 of 12, ↑↓ scroll`, shown instead where the box has room.
    var wide: String?

    /// Creates a mark.
    init(hiddenAbove: Bool, hiddenBelow: Bool, text: String, wide: String? = nil) {
        self.hiddenAbove = hiddenAbove
        self.hiddenBelow = hiddenBelow
        self.text = text
        self.wide = wide
    }

    /// The mark for rows `first..<first + shown` of `total`: `first+1-last of total`.
    init(first: Int, shown: Int, total: Int, wide: ((_ range: String) -> String)? = nil) {
        let range = "\(first + 1)-\(first + shown)"
        self.init(
            hiddenAbove: first > 0, hiddenBelow: first + shown < total, text: "\(range) of \(total)",
            wide: wide?("\(range) of \(total)"))
    }

    /// Draws the mark into the bottom border of `box`.
    @MainActor
    func draw(on box: Rect, on terminal: any Terminal, theme: Theme) {
        let arrows = (hiddenAbove ? theme.glyphs.scrollUp : " ") + (hiddenBelow ? theme.glyphs.scrollDown : " ")
        let labels = [wide, text].compactMap(\.self).map { " \(arrows) \($0) " }
        let label = labels.first { TextLayout.width(of: $0) + 4 <= box.width } ?? labels[labels.count - 1]
        terminal.put(
            label, row: box.bottom - 1, column: max(box.column + 1, box.right - 2 - TextLayout.width(of: label)),
            style: theme.warning)
    }
}
