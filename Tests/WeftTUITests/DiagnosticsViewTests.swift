import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Diagnostics screen")
struct DiagnosticsViewTests {
    @Test("At 80×24: registrations with lifetime and resolution, and the run's timeline")
    func large() throws {
        let buffer = render(Fixtures.diagnostics)
        expectChrome(buffer, screen: Fixtures.diagnostics)
        #expect(buffer.contains("4 registrations, 3 resolved"))
        let store = try #require(buffer.lines.first { $0.contains("HistoryStore") })
        #expect(store.contains("singleton") && store.contains("✓ yes"))
        let clock = try #require(buffer.lines.first { $0.contains("Clock") })
        #expect(clock.contains("transient") && clock.contains("· no"))
        #expect(buffer.contains("┌─ Last run"))
        #expect(buffer.lines.contains { $0.contains("Start fact server") && $0.contains("█") && $0.contains("120 ms") })
    }

    @Test("At 60×16 both boxes fit; overflowing lists say where they are and scroll to their ends")
    func small() {
        var view = Fixtures.diagnostics
        view.registrations += (0..<12).map { .init(name: "Service\($0)", lifetime: "scoped", isResolved: false) }
        let buffer = render(view, size: Fixtures.small)
        expectChrome(buffer, screen: view)
        #expect(buffer.lines.contains { $0.contains("▼ 1-") && $0.contains("of 16, ↑↓ scroll") }, "\(buffer.rendered)")
        #expect(buffer.contains("Last run"))
        #expect(!buffer.contains("more"), "no '+N more' any longer")
        #expect(!buffer.contains("Service11"))
        let limit = view.maxScroll(in: Fixtures.small)
        #expect(limit > 0)
        view.scroll = limit
        let end = render(view, size: Fixtures.small)
        #expect(end.contains("Service11"), "\(end.rendered)")
        #expect(end.lines.contains { $0.contains("▲") && $0.contains("of 16") })
        view.scroll = limit + 50
        #expect(render(view, size: Fixtures.small).rendered == end.rendered, "scrolling stops at the end")
    }

    @Test("A failed step says so with a glyph and words, also without colour")
    func failureInWords() {
        var view = Fixtures.diagnostics
        view.timeline[3].isFailure = true
        let buffer = render(view, isMonochrome: true)
        #expect(buffer.contains("Last run · ✗ 1 failed"), "\(buffer.rendered)")
        #expect(buffer.lines.contains { $0.contains("Fetch first fact") && $0.contains("✗ failed") })
        expectNoColor(buffer)
    }

    @Test("Without a recorded run, the timeline says so")
    func emptyTimeline() {
        var view = Fixtures.diagnostics
        view.timeline = []
        #expect(render(view).contains("no run recorded yet"))
    }

    @Test("Monochrome: no colour roles")
    func monochrome() {
        expectNoColor(render(Fixtures.diagnostics, isMonochrome: true))
    }
}
