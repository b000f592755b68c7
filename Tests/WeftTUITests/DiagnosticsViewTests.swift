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

    @Test("At 60×16 both boxes fit and overflowing registrations are summarised")
    func small() {
        var view = Fixtures.diagnostics
        view.registrations += (0..<12).map { .init(name: "Service\($0)", lifetime: "scoped", isResolved: false) }
        let buffer = render(view, size: Fixtures.small)
        expectChrome(buffer, screen: view)
        #expect(buffer.lines.contains { $0.contains("more") })
        #expect(buffer.contains("Last run"))
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
