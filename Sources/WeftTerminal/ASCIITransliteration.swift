/// Turns any text into ASCII of the same cell width, for terminals whose locale is not UTF-8.
///
/// Known symbols get a look-alike (`›` → `>`, `✓` → `+`, `…` → `~`, `é` → `e`, box drawing →
/// `+-|`); anything else becomes `?` per cell (a wide glyph such as 猫 becomes `??`). Keeping
/// widths means a screen laid out for Unicode lines up the same in ASCII, and ncurses never
/// receives a character it cannot show (which would leave stale cells behind).
package enum ASCIITransliteration {
    /// `text` in ASCII, each character replaced by as many characters as cells it takes.
    package static func ascii(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if character.isASCII {
                result.append(character)
                continue
            }
            let width = CellWidth.of(character)
            guard width > 0 else { continue }
            let replacement = lookAlike(character) ?? "?"
            result += String(repeating: replacement, count: width)
        }
        return result
    }

    /// One ASCII character standing for `character`, if there is a natural one.
    static func lookAlike(_ character: Character) -> Character? {
        if let known = table[character] { return known }
        guard let scalar = character.unicodeScalars.first else { return nil }
        switch scalar.value {
        case 0x2500...0x257F:  // box drawing
            let name = scalar.properties.name ?? ""
            if name.contains("HORIZONTAL") && !name.contains("VERTICAL") { return "-" }
            if name.contains("VERTICAL") && !name.contains("HORIZONTAL") { return "|" }
            if name.contains(" LEFT") && !name.contains("DOWN") && !name.contains("UP") { return "-" }
            if name.contains(" RIGHT") && !name.contains("DOWN") && !name.contains("UP") { return "-" }
            if (name.contains(" UP") || name.contains(" DOWN")) && !name.contains("LEFT") && !name.contains("RIGHT") {
                return "|"
            }
            return "+"
        case 0x2800...0x28FF:  // braille (spinners)
            return "*"
        default:
            break
        }
        // Letters with accents, by their Unicode name: "LATIN SMALL LETTER E WITH ACUTE" → e.
        if let name = scalar.properties.name, let with = name.firstRange(of: " WITH ") {
            let base = name[..<with.lowerBound]
            for (prefix, isSmall) in [("LATIN SMALL LETTER ", true), ("LATIN CAPITAL LETTER ", false)]
            where base.hasPrefix(prefix) {
                let letter = base.dropFirst(prefix.count)
                guard letter.count == 1, let first = letter.first, first.isASCII else { return nil }
                return isSmall ? Character(first.lowercased()) : first
            }
        }
        return nil
    }

    private static let table: [Character: Character] = [
        "›": ">", "»": ">", "‹": "<", "«": "<", "→": ">", "←": "<", "↑": "^", "↓": "v", "▲": "^", "▼": "v",
        "●": "*", "•": "*", "◆": "*", "★": "*", "✓": "+", "✔": "+", "✗": "x", "✘": "x", "×": "x",
        "·": "-", "…": "~", "—": "-", "–": "-", "‐": "-", "−": "-", "█": "#", "▓": "#", "▒": ":", "░": ".",
        "‘": "'", "’": "'", "‚": ",", "“": "\"", "”": "\"", "„": "\"", "°": "o", "\u{00A0}": " ",
        "é": "e", "è": "e", "ê": "e", "ë": "e", "á": "a", "à": "a", "â": "a", "ä": "a", "ó": "o", "ö": "o",
        "ô": "o", "ú": "u", "ü": "u", "û": "u", "í": "i", "ï": "i", "ç": "c", "ñ": "n", "ß": "s",
    ]
}
