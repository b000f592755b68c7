import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Timeline")
struct TimelineTests {
    let timeline = Timeline(entries: [
        .init(label: "open", startMilliseconds: 0, durationMilliseconds: 100),
        .init(label: "server", startMilliseconds: 100, durationMilliseconds: 200),
        .init(label: "facts", startMilliseconds: 100, durationMilliseconds: 100),
        .init(label: "fetch", startMilliseconds: 300, durationMilliseconds: 100),
    ])

    @Test("Bars are scaled to the width: start and length proportional to time")
    func scaled() {
        #expect(timeline.totalMilliseconds == 400)
        #expect(timeline.barSpan(of: timeline.entries[0], width: 40) == (0, 10))
        #expect(timeline.barSpan(of: timeline.entries[1], width: 40) == (10, 20))
        #expect(timeline.barSpan(of: timeline.entries[3], width: 40) == (30, 10))
    }

    @Test("A very short step still gets a visible bar")
    func minimumLength() {
        let short = Timeline(entries: [
            .init(label: "a", startMilliseconds: 0, durationMilliseconds: 1000),
            .init(label: "b", startMilliseconds: 500, durationMilliseconds: 0),
        ])
        #expect(short.barSpan(of: short.entries[1], width: 20).length == 1)
    }

    @Test("Parallel steps draw overlapping bars; sequential ones do not")
    func overlap() throws {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 6, columns: 60))
        timeline.draw(in: Rect(row: 0, column: 0, height: 6, width: 60), on: buffer, theme: Theme(isMonochrome: false))
        func barColumns(_ row: Int) -> Set<Int> {
            Set((0..<60).filter { buffer.cell(row: row, column: $0)?.character == "█" })
        }
        let open = barColumns(0)
        let server = barColumns(1)
        let facts = barColumns(2)
        let fetch = barColumns(3)
        #expect(!server.isEmpty && !facts.isEmpty)
        #expect(!server.isDisjoint(with: facts))
        #expect(open.isDisjoint(with: server))
        #expect(server.isDisjoint(with: fetch))
        #expect(try #require(open.max()) < #require(fetch.min()))
        #expect(buffer.text(at: 0).hasSuffix("100 ms"))
        #expect(buffer.text(at: 4).contains("400 ms"))
    }

    @Test("Durations read as milliseconds below a second, tenths of seconds above")
    func format() {
        #expect(Timeline.format(milliseconds: 0) == "0 ms")
        #expect(Timeline.format(milliseconds: 999) == "999 ms")
        #expect(Timeline.format(milliseconds: 1234) == "1.2 s")
        #expect(Timeline.format(milliseconds: 12_960) == "13.0 s")
    }
}
