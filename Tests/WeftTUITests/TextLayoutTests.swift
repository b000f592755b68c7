import Testing

@testable import WeftTUI
@testable import WeftTerminal

@Suite("Text layout")
struct TextLayoutTests {
    @Test("ASCII takes one cell per character")
    func asciiWidth() {
        #expect(TextLayout.width(of: "hello") == 5)
        #expect(TextLayout.width(of: "") == 0)
    }

    @Test("East Asian wide glyphs and emoji take two cells")
    func wideWidth() {
        #expect(TextLayout.width(of: "猫") == 2)
        #expect(TextLayout.width(of: "猫 cat") == 6)
        #expect(TextLayout.width(of: "🐟") == 2)
        #expect(TextLayout.width(of: "ｗ") == 2)  // fullwidth Latin
        #expect(TextLayout.width(of: "한") == 2)
    }

    @Test("Combining marks take no cell of their own")
    func combiningWidth() {
        #expect(TextLayout.width(of: "e\u{301}") == 1)
        #expect(TextLayout.width(of: "cafe\u{301}") == 4)
        #expect(TextLayout.width(of: "👩‍💻") == 2)  // ZWJ sequence: one glyph
        #expect(TextLayout.width(of: "\u{200B}") == 0)  // zero-width space
    }

    @Test("Box drawing and symbols take one cell")
    func narrowSymbols() {
        #expect(TextLayout.width(of: "┌─┐✓✗·…█░⠋") == 10)
    }

    @Test("Truncation ends in an ellipsis and fits the width")
    func truncate() {
        #expect(TextLayout.truncate("Hello, world", toWidth: 8) == "Hello, …")
        #expect(TextLayout.truncate("short", toWidth: 8) == "short")
        #expect(TextLayout.truncate("exactly8", toWidth: 8) == "exactly8")
        #expect(TextLayout.truncate("abc", toWidth: 1) == "…")
        #expect(TextLayout.truncate("abc", toWidth: 0) == "")
    }

    @Test("Truncation never splits a wide glyph")
    func truncateWide() {
        let cut = TextLayout.truncate("猫猫猫猫", toWidth: 6)
        #expect(cut == "猫猫…")
        #expect(TextLayout.width(of: cut) == 5)
    }

    @Test("Wrapping fills lines greedily at word boundaries")
    func wrapWords() {
        #expect(TextLayout.wrap("a cat naps all day", toWidth: 9) == ["a cat", "naps all", "day"])
        #expect(TextLayout.wrap("  spaced   out  ", toWidth: 20) == ["spaced out"])
    }

    @Test("Wrapping breaks words longer than the line")
    func wrapLongWord() {
        #expect(TextLayout.wrap("abcdefghij xy", toWidth: 4) == ["abcd", "efgh", "ij", "xy"])
    }

    @Test("Wrapping keeps explicit line breaks and blank lines")
    func wrapNewlines() {
        #expect(TextLayout.wrap("one\n\ntwo", toWidth: 10) == ["one", "", "two"])
    }

    @Test("Wrapped lines with wide glyphs never exceed the width", arguments: [3, 4, 5, 7, 10, 21])
    func wrapWide(width: Int) {
        let text = "猫は一日に十六時間眠ります 🐈 cats 🐟🐟🐟 nap a lot, ça va"
        let lines = TextLayout.wrap(text, toWidth: width)
        #expect(lines.allSatisfy { TextLayout.width(of: $0) <= width })
        #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " })
    }

    @Test("Padding aligns text in a field of exact width")
    func pad() {
        #expect(TextLayout.pad("ab", toWidth: 5) == "ab   ")
        #expect(TextLayout.pad("ab", toWidth: 5, alignment: .right) == "   ab")
        #expect(TextLayout.pad("ab", toWidth: 5, alignment: .center) == " ab  ")
        #expect(TextLayout.pad("猫", toWidth: 4, alignment: .center) == " 猫 ")
        #expect(TextLayout.pad("toolong", toWidth: 4) == "too…")
    }

    @Test("Centring accounts for display width")
    func centre() {
        #expect(TextLayout.centeredColumn(of: "猫猫", inWidth: 10) == 3)
        #expect(TextLayout.centeredColumn(of: "ab", inWidth: 10, from: 5) == 9)
    }

    @Test("Sanitizing removes control characters and expands tabs")
    func sanitize() {
        #expect(TextLayout.sanitized("a\tb\u{1B}[31mc\r\nd") == "a b[31mcd")
    }
}
