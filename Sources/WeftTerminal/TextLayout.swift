/// Measures, truncates, wraps and aligns text in terminal cells.
///
/// Widths follow ``CellWidth`` (East Asian wide glyphs and emoji take two cells,
/// combining marks none) and never depend on the process locale.
///
/// ```swift
/// TextLayout.width(of: "猫 cat")              // 6
/// TextLayout.truncate("Hello, world", toWidth: 8)  // "Hello, …"
/// TextLayout.wrap("a cat naps", toWidth: 5)  // ["a cat", "naps"]
/// ```
package enum TextLayout {
    /// How ``pad(_:toWidth:alignment:)`` places text in a wider field.
    package enum Alignment: Sendable, Hashable {
        /// Flush left, spaces on the right.
        case left
        /// Centred, the odd space on the right.
        case center
        /// Flush right, spaces on the left.
        case right
    }

    /// The number of cells `text` takes on one line.
    package static func width(of text: String) -> Int {
        text.reduce(0) { $0 + CellWidth.of($1) }
    }

    /// The number of cells one character takes: 0, 1 or 2.
    package static func width(of character: Character) -> Int {
        CellWidth.of(character)
    }

    /// `text` with tabs turned into spaces and other control characters (including line
    /// breaks) removed, so it is safe to write on one line.
    package static func sanitized(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if character == "\t" {
                result.append(" ")
            } else if let scalar = character.unicodeScalars.first,
                character.unicodeScalars.count == 1,
                scalar.properties.generalCategory == .control
            {
                continue
            } else if character == "\r\n" {
                continue
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `text` cut to at most `width` cells, ending in "…" when anything was cut.
    package static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if self.width(of: text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = CellWidth.of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// The longest prefix of `text` that fits in `width` cells, never splitting a glyph.
    package static func prefix(_ text: String, fittingWidth width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let w = CellWidth.of(character)
            if used + w > width { break }
            result.append(character)
            used += w
        }
        return result
    }

    /// `text` word-wrapped into lines of at most `width` cells.
    ///
    /// Runs of spaces collapse to one; line breaks in `text` start new lines (an empty line
    /// stays empty); a word longer than `width` is broken across lines.
    package static func wrap(_ text: String, toWidth width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        let paragraphs = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for paragraph in paragraphs {
            let words = sanitized(String(paragraph)).split(separator: " ", omittingEmptySubsequences: true)
            if words.isEmpty {
                lines.append("")
                continue
            }
            var line = ""
            var lineWidth = 0
            for word in words.map(String.init) {
                let wordWidth = self.width(of: word)
                if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                var rest = word
                while self.width(of: rest) > width {
                    var chunk = prefix(rest, fittingWidth: width)
                    if chunk.isEmpty, let first = rest.first { chunk = String(first) }  // wider than the line
                    lines.append(chunk)
                    rest.removeFirst(chunk.count)
                }
                line = rest
                lineWidth = self.width(of: rest)
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` truncated to `width` cells and padded with spaces to exactly `width` cells.
    package static func pad(_ text: String, toWidth width: Int, alignment: Alignment = .left) -> String {
        guard width > 0 else { return "" }
        let fitted = truncate(text, toWidth: width)
        let gap = width - self.width(of: fitted)
        switch alignment {
        case .left:
            return fitted + String(repeating: " ", count: gap)
        case .right:
            return String(repeating: " ", count: gap) + fitted
        case .center:
            let left = gap / 2
            return String(repeating: " ", count: left) + fitted + String(repeating: " ", count: gap - left)
        }
    }

    /// The column at which `text` starts when centred in a field of `width` cells at `column`.
    package static func centeredColumn(of text: String, inWidth width: Int, from column: Int = 0) -> Int {
        column + max(0, (width - self.width(of: text)) / 2)
    }
}
