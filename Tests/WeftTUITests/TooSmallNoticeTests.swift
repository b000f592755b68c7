import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Too-small notice")
struct TooSmallNoticeTests {
    static let screens: [any Screen] = [
        Fixtures.splash, Fixtures.fact, Fixtures.error, Fixtures.menu, Fixtures.diagnostics,
    ]

    @Test("Below 40×12 every screen shows the size message instead of its layout", arguments: 0..<5)
    func tooSmall(index: Int) {
        let screen = Self.screens[index]
        for size in [
            Fixtures.tooSmall, TerminalSize(rows: 12, columns: 39), TerminalSize(rows: 11, columns: 40),
            TerminalSize(rows: 3, columns: 20),
        ] {
            let buffer = render(screen, size: size)
            #expect(buffer.contains("\(size.columns)×\(size.rows)"), "\(size):\n\(buffer.rendered)")
            #expect(buffer.contains("40×12") || size.columns < 30, "\(size):\n\(buffer.rendered)")
            #expect(!buffer.contains("weft ·"))
        }
    }

    @Test("At exactly 40×12 (compact) and 60×16 (full) the layout is shown")
    func exactMinimum() {
        for screen in Self.screens {
            for size in [Fixtures.compact, Fixtures.small] {
                let buffer = render(screen, size: size)
                #expect(!buffer.contains("Terminal too small"))
                expectChrome(buffer, screen: screen)
            }
        }
    }

    @Test("The message reads as in the issue")
    func message() {
        #expect(TooSmallNotice(size: Fixtures.tooSmall).message == "Terminal too small: 39×11, needs 40×12")
    }
}
