import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Key-hint bar")
struct KeyHintBarTests {
    let hints = [
        KeyHint("n", "next"), KeyHint("e", "environment"), KeyHint("d", "diagnostics"), KeyHint("?", "help"),
        KeyHint("q", "quit"),
    ]

    @Test("All hints show when they fit, in order")
    func allFit() {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 1, columns: 80))
        KeyHintBar(hints: hints).draw(row: 0, on: buffer, theme: Theme(isMonochrome: false))
        #expect(buffer.text(at: 0) == "  n next   e environment   d diagnostics   ? help   q quit")
    }

    @Test("When space runs out, middle hints go and the last hint (quit) stays")
    func keepsQuit() {
        let bar = KeyHintBar(hints: hints)
        let visible = bar.visibleHints(width: 40)
        #expect(visible.first == hints.first)
        #expect(visible.last == KeyHint("q", "quit"))
        #expect(visible.count < hints.count)
    }

    @Test("Keys are emphasised: colour roles in colour, reverse video in monochrome")
    func styles() {
        for isMonochrome in [false, true] {
            let buffer = ScreenBuffer(size: TerminalSize(rows: 1, columns: 30), isMonochrome: isMonochrome)
            KeyHintBar(hints: [KeyHint("q", "quit")]).draw(row: 0, on: buffer, theme: Theme(isMonochrome: isMonochrome))
            let key = buffer.style(row: 0, column: 2)
            let label = buffer.style(row: 0, column: 5)
            if isMonochrome {
                #expect(key == TextStyle(isBold: true, isReverse: true))
                #expect(label == TextStyle(isReverse: true))
            } else {
                #expect(key?.role == .hintKey)
                #expect(label?.role == .hintBar)
            }
        }
    }
}
