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

    @Test("X10 reports (terminals without mode 1006): button, column and row plus 32")
    func x10() {
        #expect(MouseEvent.x10(32, 33 + 9, 33 + 4) == MouseEvent(.press(button: 0), row: 4, column: 9))
        #expect(MouseEvent.x10(35, 33, 33) == MouseEvent(.release(button: 0), row: 0, column: 0))
        #expect(MouseEvent.x10(96, 40, 40) == MouseEvent(.wheelUp, row: 7, column: 7))
        #expect(MouseEvent.x10(97, 40, 40) == MouseEvent(.wheelDown, row: 7, column: 7))
        for (button, column, row) in [
            (31, 40, 40), (32, 32, 40), (32, 40, 32), (64, 40, 40), (34 + 32, 40, 40), (255, 255, 255),
        ]
            as [(UInt8, UInt8, UInt8)]
        {
            #expect(MouseEvent.x10(button, column, row) == nil, "\(button) \(column) \(row)")
        }
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
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
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
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
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
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
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
        let (model, sandbox) = try await settledModel(environment: "broken")
        defer { sandbox.remove() }
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

    @Test("A long list scrolls only when the selection leaves it: a click does not move the rows under the pointer")
    func stickyScroll() async throws {
        var panel = HistoryPanel()
        let entries = (1...50).map {
            HistoryEntry(
                text: "Fact number \($0)", timesSeen: 1, lastSeen: Date(timeIntervalSince1970: 0),
                environment: "embedded")
        }
        panel.show(.loaded(entries))
        panel.move(.last)
        let rows = 7
        #expect(panel.position.firstVisible(rows: rows) == 43)
        panel.setTop(43)
        panel.select(43)
        #expect(panel.position.firstVisible(rows: rows) == 43, "the top row clicked stays where it is")
        panel.move(.up)
        #expect(panel.position.firstVisible(rows: rows) == 42, "moving above the view scrolls by one")
        panel.setTop(42)
        panel.move(.down)
        #expect(panel.position.firstVisible(rows: rows) == 42)
        #expect(ListPosition.firstVisible(index: 3, top: 40, count: 5, rows: 7) == 0)
        #expect(ListPosition.firstVisible(index: 0, top: 0, count: 0, rows: 7) == 0)
    }

    @Test("A double click opens the row the first click selected, even in a scrolled list")
    func doubleClickScrolled() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
        for _ in 0..<11 {
            press(model, .char("n"))
            await model.settle()
        }
        press(model, .char("h"))
        await model.settle()
        let count = try #require(model.historyPanel?.entries.count)
        #expect(count == 12, "the bundled server deals every fact once before any comes again: \(count)")
        press(model, .end)
        var buffer = render(model, size: Fixtures.compact)
        let top = try #require(model.historyPanel?.position.top)
        #expect(top > 0 && top == count - 7, "compact: 7 rows under the header, the last one highlighted")
        // The top row shown (under the title bar, the border and the header): click it twice.
        let row = 3
        let entries = try #require(model.historyPanel?.entries)
        #expect(buffer.text(at: row).contains(String(entries[top].text.prefix(10))), "\(buffer.rendered)")
        let cell = (row: row, column: 5)
        for clickCount in 1...2 {
            press(
                model, .mouse(MouseEvent(.press(button: 0), row: cell.row, column: cell.column, clickCount: clickCount))
            )
            buffer = render(model, size: Fixtures.compact)
            press(model, .mouse(MouseEvent(.release(button: 0), row: cell.row, column: cell.column)))
        }
        #expect(model.historyPanel?.position.index == top, "the row under the pointer: \(buffer.rendered)")
        #expect(model.historyPanel?.isOpen == true)
        await model.shutdown()
    }

    @Test("A key-bar hint acts when the button comes up on it, not if it comes up elsewhere")
    func actsOnRelease() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
        let buffer = render(model)
        let quit = try #require(buffer.position(of: "q quit"))
        press(model, .mouse(MouseEvent(.press(button: 0), row: quit.row, column: quit.column)))
        press(model, .mouse(MouseEvent(.release(button: 0), row: 5, column: 5)))
        let help = try #require(buffer.position(of: "? help"))
        press(model, .mouse(MouseEvent(.press(button: 0), row: help.row, column: help.column)))
        #expect(!model.isHelpVisible, "nothing on the press")
        press(model, .mouse(MouseEvent(.release(button: 0), row: help.row, column: help.column + 2)))
        #expect(model.isHelpVisible)
        await model.shutdown()
    }

    @Test("While the command line is open, clicks do nothing")
    func commandLineIgnoresMouse() async throws {
        let (model, sandbox) = try await settledModel()
        defer { sandbox.remove() }
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
