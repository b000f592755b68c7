import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Screen rendering")
struct ScreenTests {
    static let degenerate: [any Screen] = [
        SplashView(logo: [], environment: "", steps: []),
        FactView(fact: "", environment: "", latencyMilliseconds: 0, seenCount: 0, historyCount: 0, notice: ""),
        ErrorView(environment: "", stepTitle: "", phase: "", message: "", hint: "", elapsedMilliseconds: 0),
        EnvironmentMenuView(options: [], currentEnvironment: nil, selectedIndex: 5),
        DiagnosticsView(
            environment: nil, registrations: [],
            timeline: [.init(label: "", startMilliseconds: -5, durationMilliseconds: -1)]),
        FactView(
            fact: String(repeating: "猫🐈", count: 500), environment: String(repeating: "e", count: 300),
            latencyMilliseconds: Int.max / 2, seenCount: 1, historyCount: 1),
    ]

    @Test("Every screen, even with empty or extreme state, renders at any size without trapping")
    func anySize() {
        let screens: [any Screen] =
            [Fixtures.splash, Fixtures.fact, Fixtures.error, Fixtures.menu, Fixtures.diagnostics] + Self.degenerate
        // Every size class, not every size: this runs on the main actor, which every screen
        // and initializer test shares, so it must stay short (a second in a debug build).
        for columns in [0, 1, 2, 5, 13, 29, 59, 60, 61, 80, 100] {
            for rows in [0, 1, 2, 7, 15, 16, 17, 24, 40] {
                let size = TerminalSize(rows: rows, columns: columns)
                for screen in screens {
                    let buffer = render(screen, size: size, overlay: rows % 2 == 0 ? Fixtures.help : nil)
                    #expect(buffer.lines.count == rows)
                    if size.fits(TooSmallNotice.minimumSize) {
                        #expect(buffer.text(at: rows - 1).contains("quit"), "\(size)")
                    }
                }
            }
        }
    }

    @Test("Rendering clears what the previous frame drew")
    func clearsPreviousFrame() {
        let buffer = ScreenBuffer(size: Fixtures.large)
        Fixtures.error.render(on: buffer)
        Fixtures.fact.render(on: buffer)
        #expect(!buffer.contains("Initialization failed"))
        #expect(buffer.contains("Cat fact"))
    }
}
