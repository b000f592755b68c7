import FactKit
import Testing

@testable import WeftTUI
@testable import WeftTerminal

/// Between 40×12 and 60×16 every screen draws its compact layout.
@MainActor
@Suite("Compact layouts")
struct CompactLayoutTests {
    static let sizes = [Fixtures.compact, TerminalSize(rows: 12, columns: 59), TerminalSize(rows: 15, columns: 40)]

    @Test("The fact: every word of it, and where it came from in one line")
    func fact() {
        for size in Self.sizes {
            let buffer = render(Fixtures.fact, size: size)
            let text = buffer.lines.joined(separator: " ")
            for word in Fixtures.fact.fact.split(separator: " ") {
                #expect(text.contains(word), "\(word) at \(size):\n\(buffer.rendered)")
            }
            #expect(buffer.contains("embedded · 14 ms · seen 3× · 42 facts"), "\(size):\n\(buffer.rendered)")
            expectChrome(buffer, screen: Fixtures.fact)
        }
    }

    @Test("The key bar keeps ? and q, and of the others those that fit, in order")
    func keyBar() {
        let bar = KeyHintBar(hints: KeyMap.barHints(in: .main))
        #expect(bar.visibleHints(width: 40).map(\.key) == ["n", "h", "?", "q"])
        #expect(bar.visibleHints(width: 80).map(\.key) == ["n", "e", "h", "y", "?", "q"])
        #expect(bar.visibleHints(width: 200).map(\.key) == ["n", "e", "h", "y", "d", "?", "q"])
        #expect(
            KeyHintBar(hints: KeyMap.barHints(in: .environmentMenu)).visibleHints(width: 40).map(\.key) == [
                "Enter", "?", "q",
            ])
    }

    @Test("The error: step, detail and as much of the message as fits, the rest scrolled to")
    func error() {
        let buffer = render(Fixtures.error, size: Fixtures.compact)
        #expect(buffer.contains("✗ Fetch first fact"))
        #expect(buffer.contains("post-sync · failed after 1.2 s"), "\(buffer.rendered)")
        #expect(buffer.contains("could not connect to"), "\(buffer.rendered)")
        expectChrome(buffer, screen: Fixtures.error)
    }

    @Test("Menu and history: every row that fits, no legend, the history without its date and environment columns")
    func lists() {
        let menu = render(Fixtures.menu, size: Fixtures.compact)
        for option in Fixtures.menu.options { #expect(menu.contains(option.name), "\(menu.rendered)") }
        #expect(!menu.contains("Enter re-initializes"))
        var panel = HistoryPanel()
        panel.show(.loaded(Fixtures.historyEntries))
        let history = render(HistoryView(panel: panel, environment: "embedded"), size: Fixtures.compact)
        #expect(history.contains("seen fact"), "\(history.rendered)")
        #expect(history.contains("› 3×   A group of cats is called"), "\(history.rendered)")
        #expect(!history.contains("staging"))
    }

    @Test("Diagnostics: the last run as a list without bars; the splash without logo or phases")
    func diagnosticsAndSplash() {
        let diagnostics = render(Fixtures.diagnostics, size: Fixtures.compact)
        #expect(!diagnostics.contains(Glyphs.unicode.barFilled), "\(diagnostics.rendered)")
        #expect(
            diagnostics.contains("Open history database") && diagnostics.contains("20 ms"), "\(diagnostics.rendered)")
        let full = render(Fixtures.diagnostics, size: Fixtures.large)
        #expect(full.contains(Glyphs.unicode.barFilled))
        let splash = render(Fixtures.splash, size: Fixtures.compact)
        #expect(splash.contains("Starting embedded…") && splash.contains("Start fact server"), "\(splash.rendered)")
        #expect(!splash.contains("post-sync") && !splash.contains(Fixtures.logo[0]))
    }

    @Test("The start-up chain: each step and its duration; the start offsets only where they fit")
    func startup() {
        let view = StartupView(
            environment: "embedded",
            chain: [
                .init(title: "Load settings", startMilliseconds: 0, durationMilliseconds: 2),
                .init(title: "Start the fact server", startMilliseconds: 2, durationMilliseconds: 18),
                .init(
                    title: "Fetch the first cat fact", startMilliseconds: 20, durationMilliseconds: 7, isFailure: true),
            ], totalMilliseconds: 27, stepCount: 9)
        let full = render(view, size: Fixtures.large)
        #expect(full.contains("3 of 9 steps decided the 27 ms start-up"), "\(full.rendered)")
        #expect(full.contains("Start the fact server") && full.contains("+2 ms") && full.contains("✗ failed"))
        let compact = render(view, size: Fixtures.compact)
        #expect(
            compact.contains("3 of 9 steps: 27 ms") && compact.contains("Start the fact server"), "\(compact.rendered)")
        #expect(!compact.contains("+2 ms") && compact.contains("18 ms"))
        expectChrome(compact, screen: view)
    }

    @Test("A chain that goes on past ready: the steps after it are marked, and only the others decided the start-up")
    func startupPastReady() {
        let view = StartupView(
            environment: "embedded",
            chain: [
                .init(title: "Load settings", startMilliseconds: 0, durationMilliseconds: 2),
                .init(title: "Fetch the first cat fact", startMilliseconds: 2, durationMilliseconds: 25),
                .init(title: "Check health", startMilliseconds: 27, durationMilliseconds: 4, isAfterReady: true),
            ], totalMilliseconds: 27, stepCount: 9)
        let full = render(view, size: Fixtures.large)
        #expect(full.contains("2 of 9 steps decided the 27 ms start-up; 1 more ran after ready"), "\(full.rendered)")
        #expect(full.contains("Check health (after ready)") && !full.contains("Load settings (after"))
        let compact = render(view, size: Fixtures.compact)
        #expect(compact.contains("2 of 9 steps: 27 ms (+1 after)"), "\(compact.rendered)")
        expectChrome(compact, screen: view)
    }
}
