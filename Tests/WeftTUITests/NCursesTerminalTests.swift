import Testing

@testable import WeftTUI
@testable import WeftTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real ncurses backend, off-screen: `newterm` over `/dev/null`, read back with
/// `mvwinnwstr`. ncurses state is process-global, so these tests run one at a time.
@MainActor
@Suite("ncurses terminal", .serialized)
struct NCursesTerminalTests {
    @Test("Text, wide glyphs and boxes land in the cells where the buffer puts them")
    func drawsLikeTheBuffer() throws {
        let terminal = try NCursesTerminal(offscreen: TerminalSize(rows: 24, columns: 80))
        defer { terminal.shutdown() }
        #expect(terminal.size == TerminalSize(rows: 24, columns: 80))
        terminal.clear()
        terminal.put("猫x 🐟y", row: 2, column: 3, style: TextStyle(isBold: true))
        terminal.drawBox(Rect(row: 4, column: 0, height: 3, width: 5), style: TextStyle(role: .border))
        terminal.put("clipped at the edge", row: 8, column: 70, style: .plain)
        #expect(terminal.readBack(row: 2) == "   猫x 🐟y")
        #expect(terminal.readBack(row: 4) == "lqqqk")  // line-drawing cells read back as ACS letters
        #expect(terminal.readBack(row: 5) == "x   x")
        #expect(terminal.readBack(row: 8) == String(repeating: " ", count: 70) + "clipped at")
        terminal.flush()
    }

    @Test("A whole screen renders identically to the in-memory buffer, apart from box glyphs")
    func screenMatchesBuffer() throws {
        let terminal = try NCursesTerminal(offscreen: TerminalSize(rows: 24, columns: 80))
        defer { terminal.shutdown() }
        var view = Fixtures.fact
        view.fact = "猫 naps 🐈 all day, " + view.fact
        view.render(on: terminal)
        let buffer = render(view)
        let acs: [Character: Character] = ["┌": "l", "┐": "k", "└": "m", "┘": "j", "─": "q", "│": "x"]
        for row in 0..<24 {
            let expected = String(buffer.text(at: row).map { acs[$0] ?? $0 })
            #expect(terminal.readBack(row: row) == expected, "row \(row)")
        }
    }

    @Test("Input is non-blocking: with nothing to read, readKey returns none")
    func nonBlocking() throws {
        let terminal = try NCursesTerminal(offscreen: TerminalSize(rows: 16, columns: 60))
        defer { terminal.shutdown() }
        #expect(terminal.readKey() == Key.none)
        #expect(terminal.interruption == nil)
    }

    @Test("NO_COLOR and TERM=dumb make the terminal monochrome; colour otherwise")
    func monochrome() throws {
        do {
            let terminal = try NCursesTerminal(offscreen: TerminalSize(rows: 24, columns: 80))
            defer { terminal.shutdown() }
            #expect(!terminal.isMonochrome)
        }
        do {
            let terminal = try NCursesTerminal(
                offscreen: TerminalSize(rows: 24, columns: 80), environment: ["NO_COLOR": "1"])
            defer { terminal.shutdown() }
            #expect(terminal.isMonochrome)
        }
        do {
            let terminal = try NCursesTerminal(
                offscreen: TerminalSize(rows: 24, columns: 80), environment: ["NO_COLOR": ""])
            defer { terminal.shutdown() }
            #expect(!terminal.isMonochrome, "an empty NO_COLOR does not count")
        }
        do {
            let terminal = try NCursesTerminal(
                offscreen: TerminalSize(rows: 24, columns: 80), termName: "dumb", environment: ["TERM": "dumb"])
            defer { terminal.shutdown() }
            #expect(terminal.isMonochrome)
        }
    }

    @Test("An unknown terminal type is a typed error naming it, not an exit")
    func unknownTerminal() {
        #expect(throws: TerminalError(.cannotOpenTerminal(term: "no-such-terminal-xyz"))) {
            _ = try NCursesTerminal(offscreen: TerminalSize(rows: 24, columns: 80), termName: "no-such-terminal-xyz")
        }
        #expect(TerminalError(.cannotOpenTerminal(term: "x")).description.contains("TERM"))
    }

    @Test(
        "Without a TTY, start-up refuses with a typed error suggesting --plain",
        .enabled(if: isatty(0) == 0 || isatty(1) == 0))
    func notATerminal() {
        #expect(throws: TerminalError(.notATerminal)) {
            _ = try NCursesTerminal(environment: ["TERM": "xterm-256color"])
        }
        #expect(TerminalError(.notATerminal).description.contains("--plain"))
    }
}

/// Start-up, keys, resize and signals on a real terminal. Runs only when
/// `WEFT_TUI_TTY_TEST` is set, inside a terminal (tmux), driven from outside; it writes
/// the exit status and the keys it read to the file named by `WEFT_TUI_TTY_RESULT`.
@MainActor
@Suite("ncurses terminal on a TTY")
struct NCursesTerminalTTYTests {
    @Test(
        "A real terminal starts, draws, reads keys and quits cleanly", .enabled(if: getenv("WEFT_TUI_TTY_TEST") != nil))
    func realTerminal() async throws {
        var environment: [String: String] = [:]
        for name in ["TERM", "NO_COLOR"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        let terminal = try NCursesTerminal(environment: environment)
        var keys: [Key] = []
        let app = TerminalApp(terminal: terminal)
        let status = await app.run(
            onKey: { key in
                keys.append(key)
                return key == .char("q") ? .quit(exitCode: 0) : .proceed
            },
            frame: { tick in
                var view = Fixtures.fact
                view.fact = "猫 naps 🐈 all day. " + view.fact
                view.notice =
                    "\(Spinner.frame(tick, isMonochrome: terminal.isMonochrome)) last key: \(keys.last.map { "\($0)" } ?? "none")"
                return TerminalApp.Frame(screen: view)
            }
        )
        terminal.shutdown()
        let report = "status \(status)\nkeys \(keys)\nmonochrome \(terminal.isMonochrome)\n"
        if let path = getenv("WEFT_TUI_TTY_RESULT"), let file = fopen(path, "w") {
            fputs(report, file)
            fclose(file)
        }
    }
}
