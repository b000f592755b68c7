import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Too-small notice")
struct TooSmallNoticeTests {
    static let screens: [any Screen] = [
        Fixtures.splash, Fixtures.fact, Fixtures.error, Fixtures.menu, Fixtures.diagnostics,
    ]

    @Test("Below 60×16 every screen shows the size message instead of its layout", arguments: 0..<5)
    func tooSmall(index: Int) {
        let screen = Self.screens[index]
        for size in [
            Fixtures.tooSmall, TerminalSize(rows: 16, columns: 59), TerminalSize(rows: 15, columns: 60),
            TerminalSize(rows: 3, columns: 20),
        ] {
            let buffer = render(screen, size: size)
            #expect(buffer.contains("\(size.columns)×\(size.rows)"), "\(size):\n\(buffer.rendered)")
            #expect(buffer.contains("needs 60×16") || size.columns < 30)
            #expect(!buffer.contains("weft ·"))
        }
    }

    @Test("At exactly 60×16 the layout is shown")
    func exactMinimum() {
        for screen in Self.screens {
            let buffer = render(screen, size: Fixtures.small)
            #expect(!buffer.contains("Terminal too small"))
            expectChrome(buffer, screen: screen)
        }
    }

    @Test("The message reads as in the issue")
    func message() {
        #expect(TooSmallNotice(size: Fixtures.tooSmall).message == "Terminal too small: 59×15, needs 60×16")
    }
}
