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

    @Test("A very long message is cut and the hint still shows")
    func longMessage() {
        var view = Fixtures.error
        view.message = String(repeating: "the socket said no. ", count: 60)
        let buffer = render(view, size: Fixtures.small)
        expectChrome(buffer, screen: view)
        #expect(buffer.contains("Hint:"))
        #expect(buffer.contains("…"))
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
