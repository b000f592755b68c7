import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Screen buffer")
struct ScreenBufferTests {
    @Test("Text is clipped at the right edge and outside rows are ignored")
    func clipping() {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 2, columns: 5))
        buffer.put("abcdefgh", row: 0, column: 2, style: .plain)
        buffer.put("zzz", row: 5, column: 0, style: .plain)
        buffer.put("xyz", row: 1, column: -1, style: .plain)
        #expect(buffer.lines == ["  abc", "yz"])
    }

    @Test("A wide glyph takes two cells but appears once")
    func wideGlyph() throws {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 1, columns: 6))
        buffer.put("猫x", row: 0, column: 1, style: TextStyle(isBold: true))
        #expect(buffer.lines == [" 猫x"])
        let head = try #require(buffer.cell(row: 0, column: 1))
        let tail = try #require(buffer.cell(row: 0, column: 2))
        #expect(head.character == "猫" && !head.isContinuation)
        #expect(tail.isContinuation)
        #expect(buffer.cell(row: 0, column: 3)?.character == "x")
        #expect(buffer.position(of: "x")?.column == 3)
    }

    @Test("A wide glyph that would straddle the right edge is not drawn")
    func wideAtEdge() {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 1, columns: 3))
        buffer.put("ab猫", row: 0, column: 0, style: .plain)
        #expect(buffer.lines == ["ab"])
    }

    @Test("Overwriting half of a wide glyph blanks the other half")
    func overwriteHalf() {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 2, columns: 6))
        buffer.put("猫猫", row: 0, column: 0, style: .plain)
        buffer.put("x", row: 0, column: 1, style: .plain)
        #expect(buffer.text(at: 0) == " x猫")
        buffer.put("猫猫", row: 1, column: 0, style: .plain)
        buffer.put("y", row: 1, column: 2, style: .plain)
        #expect(buffer.text(at: 1) == "猫y")
    }

    @Test("Boxes are drawn with line-drawing characters and keep their interior")
    func box() {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 4, columns: 6))
        buffer.put("in", row: 1, column: 2, style: .plain)
        buffer.drawBox(Rect(row: 0, column: 0, height: 4, width: 5), style: TextStyle(role: .border))
        #expect(buffer.lines == ["┌───┐", "│ in│", "│   │", "└───┘"])
        #expect(buffer.style(row: 3, column: 4)?.role == .border)
    }

    @Test("Keys are read in order, then none; resizing queues a resize key")
    func keys() {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 2, columns: 2))
        buffer.enqueue(.char("q"), .enter)
        buffer.resize(to: TerminalSize(rows: 3, columns: 4))
        #expect(buffer.readKey() == .char("q"))
        #expect(buffer.readKey() == .enter)
        #expect(buffer.readKey() == .resize)
        #expect(buffer.readKey() == Key.none)
        #expect(buffer.size == TerminalSize(rows: 3, columns: 4))
        #expect(buffer.lines.count == 3)
    }

    @Test("Clear blanks every cell and flush is counted")
    func clearAndFlush() {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 1, columns: 4))
        buffer.put("abcd", row: 0, column: 0, style: TextStyle(isReverse: true))
        buffer.clear()
        buffer.flush()
        #expect(buffer.lines == [""])
        #expect(buffer.style(row: 0, column: 0) == .plain)
        #expect(buffer.flushCount == 1)
        #expect(!buffer.contains("a"))
    }
}
