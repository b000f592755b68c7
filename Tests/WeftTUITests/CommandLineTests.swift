import FactKit
import Testing
import WeftApp

@testable import WeftTUI
@testable import WeftTerminal

@Suite("Commands")
struct CommandParsingTests {
    let environments = ["embedded", "staging", "production", "broken"]

    @Test("Every command by its name, env with an environment, and any prefix only one command starts with")
    func parses() throws {
        let expected: [(String, AppCommand)] = [
            ("env staging", .environment("staging")), ("  env   broken ", .environment("broken")),
            ("retry", .retry), ("next", .next), ("history", .history), ("diagnostics", .diagnostics),
            ("startup", .startup), ("help", .help), ("quit", .quit), ("q", .quit), ("d", .diagnostics),
            ("st", .startup), ("e staging", .environment("staging")), ("hi", .history), ("NEXT", .next),
        ]
        for (text, command) in expected {
            #expect(try AppCommand.parse(text, environments: environments).get() == command, "\(text)")
        }
    }

    @Test("Mistakes say what to type: unknown commands name the nearest, env names the environments")
    func problems() {
        func problem(_ text: String) -> String {
            guard case .failure(let problem) = AppCommand.parse(text, environments: environments) else { return "" }
            return problem.description
        }
        #expect(
            problem("hstory")
                == #"Unknown command "hstory". Did you mean history? Commands: env, retry, next, history, diagnostics, startup, help, quit"#
        )
        #expect(problem("diagnostix").contains("Did you mean diagnostics?"))
        #expect(
            problem("xyzzy")
                == #"Unknown command "xyzzy". Commands: env, retry, next, history, diagnostics, startup, help, quit"#)
        #expect(problem("h") == #""h" could be history or help: type more of it"#)
        #expect(problem("") == "Type a command: env, retry, next, history, diagnostics, startup, help, quit")
        #expect(problem("env") == "env needs an environment's name: embedded, staging, production, broken")
        #expect(problem("env a b").hasPrefix("env takes one environment's name, not 2"))
        #expect(
            problem("env stagin")
                == #"No environment "stagin". Did you mean staging? Environments: embedded, staging, production, broken"#
        )
        #expect(problem("next now") == "next takes no argument: type next alone")
        // Without a catalog, any name goes through: the run says if it does not exist.
        #expect((try? AppCommand.parse("env anything", environments: []).get()) == .environment("anything"))
    }

    @Test("Tab completes a command, then an environment; several matches are typed to where they differ and listed")
    func completes() {
        var prompt = CommandPrompt()
        prompt.insert("e")
        prompt.complete(environments: environments)
        #expect(prompt.text == "env " && prompt.message == nil)
        prompt.complete(environments: environments)
        #expect(prompt.text == "env ")
        #expect(prompt.message == "embedded  staging  production  broken" && !prompt.isProblem)
        prompt.insert("b")
        prompt.complete(environments: environments)
        #expect(prompt.text == "env broken")
        var several = CommandPrompt()
        several.insert("h")
        several.complete(environments: environments)
        #expect(several.text == "h" && several.message == "history  help")
        several.insert("i")
        several.complete(environments: environments)
        #expect(several.text == "history" && several.caret == 7)
        var none = CommandPrompt()
        for character in "zz" { none.insert(character) }
        none.complete(environments: environments)
        #expect(none.text == "zz" && none.message == #"no match for "zz""# && none.isProblem)
    }

    @Test("↑ brings back earlier commands, newest first; ↓ goes back to what was being typed")
    func browses() {
        var prompt = CommandPrompt(earlier: ["next", "env staging"])
        prompt.insert("d")
        prompt.browse(older: true)
        #expect(prompt.text == "env staging")
        prompt.browse(older: true)
        #expect(prompt.text == "next")
        prompt.browse(older: true)
        #expect(prompt.text == "next")
        prompt.browse(older: false)
        prompt.browse(older: false)
        #expect(prompt.text == "d" && prompt.caret == 1)
        #expect(prompt.remembered() == ["next", "env staging", "d"])
        var repeated = CommandPrompt(earlier: ["next"])
        for character in " next " { repeated.insert(character) }
        #expect(repeated.remembered() == ["next"], "the same command twice in a row is remembered once")
    }

    @Test("Editing: the caret moves within the text, typing goes where it is, Backspace deletes before it")
    func edits() {
        var prompt = CommandPrompt()
        for character in "nxt" { prompt.insert(character) }
        prompt.moveCaret(by: -2)
        prompt.insert("e")
        #expect(prompt.text == "next" && prompt.caret == 2)
        prompt.moveCaret(toEnd: true)
        let deleted = prompt.deleteBackward()
        #expect(deleted && prompt.text == "nex")
        prompt.moveCaret(toEnd: false)
        let deletedAtStart = prompt.deleteBackward()
        #expect(!deletedAtStart)
        prompt.moveCaret(by: 99)
        #expect(prompt.caret == 3)
    }
}

@MainActor
@Suite("Command line in the app")
struct CommandLineAppTests {
    @Test(": opens the prompt on the last row with the cursor after the text; Esc closes it")
    func opensAndCloses() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
        press(model, .char(":"))
        type(model, "nex")
        let buffer = render(model)
        #expect(buffer.text(at: 23) == ":nex")
        #expect(buffer.cursor == CellPosition(row: 23, column: 4) && buffer.isCursorVisible)
        press(model, .char("q"))
        #expect(model.commandPrompt?.text == "nexq", "q is typed, not quit")
        press(model, .escape)
        #expect(model.commandPrompt == nil)
        #expect(render(model).text(at: 23).contains("q quit"))
        press(model, .char(":"), .backspace)
        #expect(model.commandPrompt == nil, "Backspace on an empty line closes it")
        await model.shutdown()
    }

    @Test("Commands do what their keys do: next, history, diagnostics, startup, help, quit")
    func runs() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
        let first = try #require(model.mainState).fact
        press(model, .char(":"))
        type(model, "next")
        press(model, .enter)
        #expect(model.commandPrompt == nil)
        await model.settle()
        #expect(model.mainState?.fact != first)
        for command in ["diagnostics", "startup", "history", "help"] {
            press(model, .char(":"))
            type(model, command)
            press(model, .enter)
            let shown: Bool
            switch command {
            case "diagnostics": shown = model.panel == .diagnostics
            case "startup": shown = model.panel == .startup
            case "history": shown = model.historyPanel != nil
            default: shown = model.isHelpVisible
            }
            #expect(shown, "\(command)")
            await model.settle()
            press(model, .escape)
        }
        press(model, .char("s"))  // nothing: an unbound key
        press(model, .char(":"))
        type(model, "startup")
        press(model, .enter)
        let chain = render(model)
        #expect(chain.contains("Critical chain") && chain.contains("steps decided the"), "\(chain.rendered)")
        #expect(model.startupView.chain.count >= 2)
        // Steps after ready end the chain, never come between the steps that decided ready.
        let afterReady = model.startupView.chain.map(\.isAfterReady)
        #expect(afterReady == afterReady.sorted { !$0 && $1 }, "\(model.startupView.chain)")
        press(model, .escape, .char(":"))
        type(model, "quit")
        #expect(model.handle(.enter) == .quit(exitCode: 0))
        #expect(model.commandHistory == ["next", "diagnostics", "startup", "history", "help", "startup", "quit"])
        await model.shutdown()
    }

    @Test("env NAME starts up again there; a mistake keeps the prompt open and says what to type")
    func switchesEnvironment() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
        press(model, .char(":"))
        type(model, "env brokn")
        press(model, .enter)
        let prompt = try #require(model.commandPrompt)
        #expect(prompt.isProblem && prompt.message?.contains("Did you mean broken?") == true)
        let buffer = render(model)
        // Wrapped over the rows above the prompt, ending with the environments to choose from.
        let above = (20...22).map { buffer.text(at: $0) }.joined(separator: " ")
        #expect(
            above.contains(#"No environment "brokn""#) && buffer.text(at: 22).hasSuffix("slow"), "\(buffer.rendered)")
        press(model, .backspace)
        type(model, "en")
        press(model, .enter)
        #expect(model.commandPrompt == nil)
        #expect(model.runsStarted == 2)
        await model.settle()
        #expect(model.errorState?.environment == "broken")
        press(model, .char(":"))
        type(model, "next")
        press(model, .enter)
        #expect(model.commandPrompt?.message == "No fact: start-up failed. Try retry, or env NAME")
        press(model, .escape, .char(":"))
        type(model, "retry")
        press(model, .enter)
        await model.settle()
        #expect(model.errorState?.attempt == 2)
        press(model, .char(":"), .up)
        #expect(model.commandPrompt?.text == "retry")
        await model.shutdown()
    }

    @Test("Help lists the commands after the keys, and scrolls at 40×12 to the last one")
    func helpListsCommands() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
        press(model, .char("?"))
        var buffer = render(model)
        #expect(buffer.contains("Commands: type : then one of these"), "\(buffer.rendered)")
        for entry in AppCommand.entries { #expect(buffer.contains(entry.summary), "\(entry.name)") }
        #expect(buffer.contains("env NAME"))
        buffer = render(model, size: Fixtures.compact)
        #expect(!buffer.contains("quit weft"))
        press(model, .end)
        buffer = render(model, size: Fixtures.compact)
        #expect(buffer.contains("quit weft"), "\(buffer.rendered)")
        press(model, .escape, .char("?"))
        #expect(model.helpScroll == 0, "help opens at the top")
        await model.shutdown()
    }

    @Test("Marks that join the character before them keep the caret on the text: no crash, the line as typed")
    func combiningMarks() {
        var prompt = CommandPrompt()
        for character in ["c", "a", "f", "e", "\u{301}", " ", "\u{2764}", "\u{FE0F}", "🇫", "🇷", "👍", "\u{1F3FD}"]
            as [Character]
        {
            prompt.insert(character)
            #expect(prompt.caret <= prompt.text.count)
        }
        #expect(prompt.text == "caf\u{E9} \u{2764}\u{FE0F}🇫🇷👍🏽" && prompt.caret == prompt.text.count)
        prompt.moveCaret(toEnd: false)
        prompt.moveCaret(by: 4)
        prompt.insert("\u{301}")  // joins the space's neighbour, not a character of its own
        #expect(prompt.caret <= prompt.text.count)
        while prompt.deleteBackward() { #expect(prompt.caret <= prompt.text.count) }
        for width in [3, 10, 40] {
            let buffer = ScreenBuffer(size: TerminalSize(rows: 4, columns: width))
            var wide = CommandPrompt()
            for character in "猫猫猫猫猫猫猫猫猫猫\u{301}" { wide.insert(character) }
            let caret = CommandLineView(prompt: wide).draw(row: 3, on: buffer, theme: Theme(isMonochrome: false))
            #expect(caret.column < max(2, width), "\(width): \(caret)")
        }
    }

    @MainActor
    @Test("Below 40×12 the prompt is not drawn, so it closes: q quits as the notice says")
    func closesWhenTooSmall() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
        press(model, .char(":"))
        _ = render(model, size: Fixtures.tooSmall)
        #expect(model.handle(.char("q")) == .quit(exitCode: 0))
        await model.shutdown()
    }
}
