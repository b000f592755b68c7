import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Fact screen")
struct FactViewTests {
    @Test("At 80×24: the fact boxed and wrapped, source and history lines")
    func large() {
        let buffer = render(Fixtures.fact)
        expectChrome(buffer, screen: Fixtures.fact)
        #expect(buffer.contains("┌─ Cat fact "))
        #expect(buffer.contains("Cats sleep for around 13 to 16 hours a day"))
        #expect(buffer.contains("awake for only three years of its life."))
        #expect(buffer.contains("environment embedded · fetched in 14 ms"))
        #expect(buffer.contains("seen 3 times · 42 facts in history"))
        #expect(buffer.text(at: 23).contains("n next"))
    }

    @Test("At 60×16 the fact wraps narrower and still fits with all lines")
    func small() {
        let buffer = render(Fixtures.fact, size: Fixtures.small)
        expectChrome(buffer, screen: Fixtures.fact)
        #expect(buffer.contains("years of its life."))
        #expect(buffer.contains("seen 3 times · 42 facts in history"))
    }

    @Test("Singular counts read naturally")
    func singular() {
        var view = Fixtures.fact
        view.seenCount = 1
        view.historyCount = 1
        #expect(view.historyLine == "seen 1 time · 1 fact in history")
    }

    @Test("A fact too long for the screen is cut with an ellipsis, chrome intact")
    func overlong() {
        var view = Fixtures.fact
        view.fact = String(repeating: "purr ", count: 400)
        let buffer = render(view, size: Fixtures.small)
        expectChrome(buffer, screen: view)
        #expect(buffer.contains("…"))
        #expect(buffer.contains("seen 3 times"))
    }

    @Test("Wide glyphs and emoji wrap inside the box and keep the border aligned")
    func wideGlyphs() throws {
        var view = Fixtures.fact
        view.fact =
            "猫 (neko) is Japanese for cat 🐈; 猫は一日に十六時間眠ります。A cat 🐟🐟 naps, " + String(repeating: "猫", count: 40) + "."
        for size in [Fixtures.large, Fixtures.small] {
            let buffer = render(view, size: size)
            let top = try #require(buffer.position(of: "┌─ Cat fact"))
            let right = try #require(buffer.position(of: "┐"))
            let bottom = try #require(buffer.position(of: "└"))
            #expect(right.row == top.row && bottom.column == top.column)
            var glyphRows = 0
            for row in (top.row + 1)..<bottom.row {
                #expect(buffer.cell(row: row, column: top.column)?.character == "│", "row \(row):\n\(buffer.rendered)")
                #expect(
                    buffer.cell(row: row, column: right.column)?.character == "│", "row \(row):\n\(buffer.rendered)")
                if buffer.text(at: row).contains("猫") { glyphRows += 1 }
            }
            #expect(glyphRows >= 3)
            #expect(buffer.contains("🐈;"))
            let neko = try #require(buffer.position(of: "猫 (neko)"))
            #expect(buffer.cell(row: neko.row, column: neko.column + 1)?.isContinuation == true)
            #expect(buffer.cell(row: neko.row, column: neko.column + 3)?.character == "(")
        }
    }

    @Test("An optional notice appears under the counts")
    func notice() {
        var view = Fixtures.fact
        view.notice = "fetching the next fact…"
        #expect(render(view).contains("fetching the next fact…"))
    }

    @Test("Monochrome: no colour roles")
    func monochrome() {
        let buffer = render(Fixtures.fact, isMonochrome: true)
        expectChrome(buffer, screen: Fixtures.fact)
        expectNoColor(buffer)
    }

    @Test(
        "The help overlay takes the body's place, lists every key and swaps the hint bar",
        arguments: [Fixtures.large, TerminalSize(rows: 16, columns: 60)])
    func helpOverlay(size: TerminalSize) {
        let buffer = render(Fixtures.fact, size: size, overlay: Fixtures.help)
        #expect(buffer.contains("┌─ Help "))
        #expect(!buffer.contains("Cat fact"))  // no half-covered box underneath
        for hint in Fixtures.fact.keyHints {
            #expect(buffer.lines.contains { $0.contains("\(hint.key)  \(hint.label)") })
        }
        #expect(buffer.text(at: size.rows - 1).contains("Esc ? q close"))
    }
}
