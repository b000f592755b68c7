import FactKit
import Foundation
import Testing
import WeftApp

@testable import WeftTUI
@testable import WeftTerminal

@Suite("Mouse reports")
struct MouseReportTests {
    @Test("SGR reports: presses, releases and the wheel, at zero-based cells")
    func parses() {
        #expect(MouseEvent.sgr(parameters: "0;10;5", final: "M") == MouseEvent(.press(button: 0), row: 4, column: 9))
        #expect(MouseEvent.sgr(parameters: "0;10;5", final: "m") == MouseEvent(.release(button: 0), row: 4, column: 9))
        #expect(MouseEvent.sgr(parameters: "2;1;1", final: "M") == MouseEvent(.press(button: 2), row: 0, column: 0))
        #expect(MouseEvent.sgr(parameters: "64;3;7", final: "M") == MouseEvent(.wheelUp, row: 6, column: 2))
        #expect(MouseEvent.sgr(parameters: "65;3;7", final: "M") == MouseEvent(.wheelDown, row: 6, column: 2))
        // Shift, Meta and Control (4, 8, 16) are read as the plain button.
        #expect(
            MouseEvent.sgr(parameters: "16;300;200", final: "M") == MouseEvent(.press(button: 0), row: 199, column: 299)
        )
    }

    @Test("Anything else is not a report: motion, sideways wheel, zero or huge cells, garbage")
    func refuses() {
        for (parameters, final) in [
            ("32;1;1", "M"), ("35;1;1", "M"), ("66;1;1", "M"), ("64;1;1", "m"), ("3;1;1", "M"), ("0;0;1", "M"),
            ("0;1;0", "M"), ("0;65536;1", "M"), ("0;1", "M"), ("0;1;1;1", "M"), ("0;;1", "M"), ("a;1;1", "M"),
            ("0;1;1", "X"), ("-1;1;1", "M"), ("+0;1;1", "M"), ("0;1;1 ", "M"), ("128;1;1", "M"),
            ("000000000;1;1", "M"), ("0;٣;1", "M"),
        ] as [(String, Character)] {
            #expect(MouseEvent.sgr(parameters: Substring(parameters), final: final) == nil, "\(parameters)\(final)")
        }
    }
}

@MainActor
@Suite("Mouse in the app")
struct MouseTests {
    @Test("A click on a key-bar hint does what the key does; on nothing, nothing")
    func keyBar() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        #expect(click(model, on: "e environment") == .proceed)
        #expect(model.menu != nil)
        #expect(click(model, on: "Esc cancel") == .proceed)
        #expect(model.panel == nil)
        let before = render(model).rendered
        // The title bar, an empty row, the fact's text, the gap between two hints: nothing.
        for (row, column) in [(0, 3), (2, 40), (9, 10), (23, 79)] {
            #expect(model.handle(.mouse(MouseEvent(.press(button: 0), row: row, column: column))) == .proceed)
        }
        #expect(model.handle(.mouse(MouseEvent(.press(button: 2), row: 23, column: 3))) == .proceed)
        #expect(render(model).rendered == before)
        #expect(model.panel == nil && !model.isHelpVisible)
        #expect(click(model, on: "? help") == .proceed)
        #expect(model.isHelpVisible)
        #expect(click(model, on: "Esc ? q close") == .proceed)
        #expect(!model.isHelpVisible)
        #expect(click(model, on: "q quit") == .quit(exitCode: 0))
        await model.shutdown()
    }

    @Test("A click on a menu row selects it, a double click switches to it; the wheel moves one row")
    func menu() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        press(model, .char("e"))
        #expect(model.menu?.selected?.name == "embedded")
        _ = click(model, on: "slow")
        #expect(model.menu?.selected?.name == "slow")
        #expect(model.panel != nil && model.runsStarted == 1, "one click only selects")
        press(model, .mouse(MouseEvent(.wheelUp, row: 10, column: 10)))
        #expect(model.menu?.selected?.name == "broken")
        _ = click(model, on: "broken", count: 2)
        #expect(model.panel == nil)
        #expect(model.runsStarted == 2)
        await model.settle()
        #expect(model.errorState?.environment == "broken")
        await model.shutdown()
    }

    @Test("History: a click selects a row, a double click opens it, the wheel moves; Esc goes back to the list")
    func history() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        press(model, .char("n"))
        await model.settle()
        press(model, .char("h"))
        await model.settle()
        guard case .history(let panel)? = model.panel, panel.entries.count == 2 else {
            Issue.record("the history should list two facts: \(String(describing: model.panel))")
            return
        }
        let second = String(panel.entries[1].text.prefix(20))
        _ = click(model, on: second)
        #expect(model.historyPanel?.position.index == 1)
        press(model, .mouse(MouseEvent(.wheelUp, row: 5, column: 5)))
        #expect(model.historyPanel?.position.index == 0)
        press(model, .mouse(MouseEvent(.wheelDown, row: 5, column: 5)))
        #expect(model.historyPanel?.position.index == 1)
        _ = click(model, on: second, count: 2)
        #expect(model.historyPanel?.isOpen == true)
        let open = render(model)
        #expect(open.contains("Fact 2 of 2") && open.contains("seen once, last"), "\(open.rendered)")
        #expect(model.keyContext == .historyEntry)
        press(model, .escape)
        #expect(model.historyPanel?.isOpen == false)
        #expect(model.historyPanel?.position.index == 1)
        await model.shutdown()
    }

    @Test("The wheel scrolls the error text and the diagnostics three rows a step, within their ends")
    func wheelScrolls() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(environment: "broken"))
        model.start()
        await model.settle()
        #expect(model.isOnError)
        _ = render(model, size: Fixtures.compact)
        let limit = try #require(model.currentScreen() as? ErrorView).maxScroll(in: Fixtures.compact)
        #expect(limit > 0, "the compact error box must overflow for this test")
        press(model, .mouse(MouseEvent(.wheelDown, row: 5, column: 5)))
        #expect(model.scroll == min(3, limit))
        for _ in 0..<10 { press(model, .mouse(MouseEvent(.wheelDown, row: 5, column: 5))) }
        #expect(model.scroll == limit)
        press(model, .mouse(MouseEvent(.wheelUp, row: 5, column: 5)))
        #expect(model.scroll == max(0, limit - 3))
        press(model, .char("d"))
        _ = render(model, size: Fixtures.compact)
        #expect(model.scroll == 0)
        press(model, .mouse(MouseEvent(.wheelDown, row: 5, column: 5)))
        #expect(model.scroll == min(3, model.diagnosticsView.maxScroll(in: Fixtures.compact)))
        await model.shutdown()
    }

    @Test("While the command line is open, clicks do nothing")
    func commandLineIgnoresMouse() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        press(model, .char(":"))
        let layout = render(model)
        #expect(layout.isCursorVisible)
        press(model, .mouse(MouseEvent(.press(button: 0), row: 23, column: 3)))
        #expect(model.commandPrompt != nil && model.panel == nil)
        await model.shutdown()
    }
}

extension AppModel {
    var historyPanel: HistoryPanel? { if case .history(let panel)? = panel { panel } else { nil } }
}
