import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Error screen")
struct ErrorViewTests {
    @Test("At 80×24: failed step, phase, elapsed time, message and hint")
    func large() throws {
        let buffer = render(Fixtures.error)
        expectChrome(buffer, screen: Fixtures.error)
        #expect(buffer.contains("┌─ Initialization failed "))
        #expect(buffer.contains("✗ Fetch first fact"))
        #expect(buffer.contains("phase post-sync · failed after 1.2 s"))
        #expect(buffer.contains("connection refused"))
        #expect(buffer.contains("Hint: is the server running?"))
        #expect(buffer.text(at: 23).contains("r retry"))
        let cross = try #require(buffer.position(of: "✗"))
        #expect(buffer.style(row: cross.row, column: cross.column)?.role == .failure)
        let corner = try #require(buffer.position(of: "┌"))
        #expect(buffer.style(row: corner.row, column: corner.column)?.role == .failure)
    }

    @Test("At 60×16 message and hint wrap inside the box")
    func small() {
        let buffer = render(Fixtures.error, size: Fixtures.small)
        expectChrome(buffer, screen: Fixtures.error)
        #expect(buffer.contains("could not connect"))
        #expect(buffer.contains("(connection refused)"))
        #expect(buffer.contains("--port 8089`"))
    }

    @Test("At 60×16 a very long message scrolls: every line of it and the hint can be read, none cut with …")
    func longMessage() {
        var view = Fixtures.error
        view.message = (1...40).map { "part \($0) of the socket's long complaint." }.joined(separator: " ")
        let first = render(view, size: Fixtures.small)
        expectChrome(first, screen: view)
        #expect(first.lines.contains { $0.contains("▼ lines 1-") && $0.contains("↑↓ scroll") }, "\(first.rendered)")
        #expect(!first.contains("…"))
        var seen = ""
        let limit = view.maxScroll(in: Fixtures.small)
        #expect(limit > 0)
        for scroll in 0...limit {
            view.scroll = scroll
            seen += render(view, size: Fixtures.small).rendered
        }
        for part in 1...40 {
            #expect(seen.contains("part \(part) of"), "part \(part) never shown")
        }
        #expect(render(view, size: Fixtures.small).contains("Hint: is the server running?"))
    }

    @Test("A retry's error screen counts the attempt")
    func attempt() {
        var view = Fixtures.error
        view.attempt = 3
        #expect(render(view).contains("phase post-sync · failed after 1.2 s · attempt 3"))
    }

    @Test("Without a hint, no hint line")
    func noHint() {
        var view = Fixtures.error
        view.hint = nil
        #expect(!render(view).contains("Hint:"))
    }

    @Test("Monochrome: no colour roles, the heading in bold")
    func monochrome() throws {
        let buffer = render(Fixtures.error, isMonochrome: true)
        expectChrome(buffer, screen: Fixtures.error)
        expectNoColor(buffer)
        let cross = try #require(buffer.position(of: "✗"))
        #expect(buffer.style(row: cross.row, column: cross.column)?.isBold == true)
    }
}
