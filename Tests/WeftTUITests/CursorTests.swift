import FactKit
import Testing
import WeftApp

@testable import WeftTUI
@testable import WeftTerminal

/// Where the cursor is parked: on the focus of every screen, at every size.
@MainActor
@Suite("Screen-reader cursor")
struct CursorTests {
    nonisolated static let sizes = [Fixtures.large, Fixtures.small, Fixtures.compact]

    /// The screen rendered at `size`, and the text starting at its focus.
    func focused(_ screen: any Screen, size: TerminalSize, overlay: HelpOverlay? = nil) -> (FrameLayout, String) {
        let buffer = ScreenBuffer(size: size)
        let layout = screen.render(on: buffer, overlay: overlay)
        let line = Array(buffer.text(at: layout.focus.row))
        let rest = layout.focus.column < line.count ? String(line[layout.focus.column...]) : ""
        return (layout, rest)
    }

    @Test("Fact: the start of the fact's text", arguments: sizes)
    func fact(size: TerminalSize) {
        let (_, text) = focused(Fixtures.fact, size: size)
        #expect(text.hasPrefix("Cats sleep for"), "\(size): \(text)")
    }

    @Test("Error: the start of the message, also when scrolled", arguments: sizes)
    func error(size: TerminalSize) {
        var (_, text) = focused(Fixtures.error, size: size)
        #expect(text.hasPrefix("could not connect"), "\(size): \(text)")
        var scrolled = Fixtures.error
        scrolled.message = (1...300).map { "line\($0)" }.joined(separator: " ")
        scrolled.scroll = 2
        (_, text) = focused(scrolled, size: size)
        let lines = TextLayout.wrap(
            scrolled.message, toWidth: min(size.columns - (size == Fixtures.compact ? 2 : 4), 72) - 6)
        #expect(text.hasPrefix(lines[2]), "\(size): \(text)")
    }

    @Test("Menu: the selected environment's name", arguments: sizes)
    func menu(size: TerminalSize) {
        let (layout, text) = focused(Fixtures.menu, size: size)
        #expect(text.hasPrefix("production"), "\(size): \(text)")
        #expect(layout.action(at: layout.focus) == .row(2))
    }

    @Test("History: the highlighted row, after its pointer; an open entry: its text", arguments: sizes)
    func history(size: TerminalSize) {
        var panel = HistoryPanel()
        panel.show(.loaded(Fixtures.historyEntries))
        panel.move(.down)
        var (layout, text) = focused(HistoryView(panel: panel, environment: "embedded"), size: size)
        #expect(layout.action(at: layout.focus) == .row(1), "\(size)")
        let fact = Fixtures.historyEntries[1].text
        #expect(text.contains(String(fact.prefix(4))), "\(size): \(text)")
        panel.open()
        (layout, text) = focused(HistoryView(panel: panel, environment: "embedded"), size: size)
        #expect(text.hasPrefix(String(fact.prefix(12))), "\(size): \(text)")
    }

    @Test(
        "Diagnostics: the first registration shown; help: its first entry; splash: the step in progress",
        arguments: sizes)
    func others(size: TerminalSize) {
        var (_, text) = focused(Fixtures.diagnostics, size: size)
        #expect(text.hasPrefix(Fixtures.diagnostics.registrations[0].name), "\(size): \(text)")
        (_, text) = focused(Fixtures.fact, size: size, overlay: HelpOverlay(entries: KeyMap.helpEntries(in: .main)))
        #expect(text.hasPrefix("n  next fact"), "\(size): \(text)")
        (_, text) = focused(Fixtures.splash, size: size)
        #expect(text.hasPrefix("Start fact server"), "\(size): \(text)")
    }

    @Test("Too small: the start of the notice")
    func tooSmall() {
        let (_, text) = focused(Fixtures.fact, size: TerminalSize(rows: 10, columns: 70))
        #expect(text.hasPrefix("Terminal too small"))
    }

    @Test("The frame loop parks the cursor hidden on the focus; --a11y draws it; typing a command always does")
    func frameLoop() async throws {
        for showsCursor in [false, true] {
            let buffer = ScreenBuffer(size: Fixtures.large)
            buffer.enqueue(.char("q"))
            let app = TerminalApp(terminal: buffer, frameInterval: .milliseconds(1), showsCursor: showsCursor)
            _ = await app.run(
                onKey: { _ in .quit(exitCode: 0) }, frame: { _ in TerminalApp.Frame(screen: Fixtures.fact) })
            #expect(buffer.isCursorVisible == showsCursor)
            let line = Array(buffer.text(at: buffer.cursor.row))
            #expect(String(line[buffer.cursor.column...]).hasPrefix("Cats sleep"))

            let typing = ScreenBuffer(size: Fixtures.large)
            typing.enqueue(.char("q"))
            var prompt = CommandPrompt()
            prompt.insert("h")
            prompt.insert("i")
            _ = await TerminalApp(terminal: typing, frameInterval: .milliseconds(1), showsCursor: showsCursor).run(
                onKey: { _ in .quit(exitCode: 0) },
                frame: { _ in TerminalApp.Frame(screen: Fixtures.fact, commandLine: CommandLineView(prompt: prompt)) })
            #expect(typing.isCursorVisible)
            #expect(typing.cursor == CellPosition(row: 23, column: 3))
            #expect(typing.text(at: 23) == ":hi")
        }
    }
}
