import Testing
import WeftTerminal

@testable import WeftTUI

/// `LANG=C` and other non-UTF-8 locales: every screen draws ASCII only, same layout.
@MainActor
@Suite("ASCII rendering")
struct ASCIIRenderingTests {
    private func expectASCII(_ buffer: ScreenBuffer, sourceLocation: SourceLocation = #_sourceLocation) {
        for (row, line) in buffer.lines.enumerated() {
            let isASCII = line.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(isASCII, "row \(row) is not ASCII: \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test("Every screen, at 80×24, 60×16 and 40×12, in colour and monochrome, with help open, is pure ASCII")
    func everyScreen() {
        let screens: [any Screen] = [
            Fixtures.splash, Fixtures.fact, Fixtures.error, Fixtures.menu, Fixtures.diagnostics,
        ]
        for screen in screens {
            for size in [Fixtures.large, Fixtures.small, Fixtures.compact, Fixtures.tooSmall] {
                for isMonochrome in [false, true] {
                    expectASCII(render(screen, size: size, isMonochrome: isMonochrome, isUnicode: false))
                }
            }
            expectASCII(render(screen, isUnicode: false, overlay: Fixtures.help))
        }
    }

    @Test("The menu marks the selection with > and the current environment with *")
    func menuMarks() throws {
        let buffer = render(Fixtures.menu, isUnicode: false)
        let selected = try #require(buffer.lines.first { $0.contains("production") })
        #expect(selected.contains("> "), "\(buffer.rendered)")
        #expect(buffer.lines.contains { $0.contains("* embedded") }, "\(buffer.rendered)")
        #expect(buffer.contains("* current   > selected"))
        #expect(buffer.contains("+--"), "boxes are drawn with +-|")
    }

    @Test("The splash shows + for done, a |/-\\ spinner and a # . progress bar")
    func splash() {
        let buffer = render(Fixtures.splash, isUnicode: false)
        #expect(buffer.lines.contains { $0.contains("+ Open history database") }, "\(buffer.rendered)")
        let spinner = Spinner.asciiFrames[3 % Spinner.asciiFrames.count]
        #expect(buffer.lines.contains { $0.contains("\(spinner) Start fact server") }, "\(buffer.rendered)")
        #expect(
            buffer.lines.contains { $0.contains("#") && $0.contains(".") && $0.contains(" 1/4") }, "\(buffer.rendered)")
    }

    @Test("The error screen marks the failed step with x; diagnostics marks resolved services with +")
    func errorAndDiagnostics() {
        #expect(render(Fixtures.error, isUnicode: false).contains("x Fetch first fact"))
        let diagnostics = render(Fixtures.diagnostics, isUnicode: false)
        #expect(diagnostics.contains("+ yes"), "\(diagnostics.rendered)")
        #expect(diagnostics.contains(". no"), "\(diagnostics.rendered)")
    }

    @Test("A fact with accents, dashes, quotes and a wide glyph keeps its width in ASCII")
    func transliteration() {
        let text = "Café — “naps” · 猫 › ✓…"
        let ascii = ASCIITransliteration.ascii(text)
        #expect(ascii == "Cafe - \"naps\" - ?? > +~")
        #expect(TextLayout.width(of: ascii) == TextLayout.width(of: text))
        #expect(ASCIITransliteration.ascii("plain") == "plain")
        #expect(ASCIITransliteration.ascii("┌─┐│└┘") == "+-+|++")
    }
}
