import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Environment menu")
struct EnvironmentMenuViewTests {
    @Test("At 80×24: every environment with its description, current marked, selection highlighted")
    func large() throws {
        let buffer = render(Fixtures.menu)
        expectChrome(buffer, screen: Fixtures.menu)
        for option in Fixtures.menu.options {
            #expect(buffer.contains(option.name))
        }
        #expect(buffer.contains("catfact.ninja over HTTPS"))
        #expect(buffer.lines.contains { $0.contains("● embedded") })
        let selected = try #require(buffer.position(of: "› "))
        #expect(buffer.text(at: selected.row).contains("production"))
        #expect(buffer.style(row: selected.row, column: selected.column)?.role == .selection)
        #expect(buffer.text(at: 23).contains("Enter select"))
    }

    @Test("At 60×16 long descriptions are truncated, not wrapped")
    func small() {
        let buffer = render(Fixtures.menu, size: Fixtures.small)
        expectChrome(buffer, screen: Fixtures.menu)
        #expect(buffer.contains("broken"))
        #expect(buffer.lines.contains { $0.contains("…") })
    }

    @Test("The highlighted environment's whole description shows under the list, wrapped")
    func selectedDetail() {
        var menu = Fixtures.menu
        menu.options[1].detail =
            "A local server on port 8089, for trying weft against a server you run yourself; start one with: weft serve --port 8089"
        menu.selectedIndex = 1
        let buffer = render(menu)
        #expect(buffer.contains("start one with: weft serve --port"), "\(buffer.rendered)")
        #expect(buffer.contains("8089"))
        let list = buffer.lines.first { $0.contains("›") } ?? ""
        #expect(list.contains("…"), "the row itself is truncated")
        let small = render(menu, size: Fixtures.small)
        expectChrome(small, screen: menu)
        #expect(small.contains("Enter re-initializes"))
    }

    @Test("Monochrome: selection in reverse video, no colour roles")
    func monochrome() throws {
        let buffer = render(Fixtures.menu, isMonochrome: true)
        expectNoColor(buffer)
        let selected = try #require(buffer.position(of: "› "))
        #expect(buffer.style(row: selected.row, column: selected.column)?.isReverse == true)
    }
}
