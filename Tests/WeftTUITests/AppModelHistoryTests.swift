import Foundation
import Synchronization
import Testing
import WeftTerminal

@testable import FactKit
@testable import WeftApp
@testable import WeftTUI

/// History, clipboard and retry counting, over the real plan, server and SQLite history.
@MainActor
@Suite("App model: history, clipboard, retries", .timeLimit(.minutes(2)))
struct AppModelHistoryTests {
    @Test("h on the main screen lists the facts shown, n adds one, Esc returns to the fact")
    func history() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options())
        model.start()
        await model.settle()
        let first = try #require(model.mainState?.fact.text)
        press(model, .char("n"))
        await model.settle()
        let second = try #require(model.mainState?.fact.text)
        press(model, .char("h"))
        #expect(model.keyContext == .history)
        await model.settle()
        let buffer = render(model)
        #expect(buffer.contains("History · "), "\(buffer.rendered)")
        let rows = buffer.lines.filter { $0.contains("embedded") && $0.contains("×") }
        #expect(first != second, "the bundled server never serves one fact twice in a row")
        #expect(rows.count == 2, "\(buffer.rendered)")
        #expect(rows.first?.contains(String(second.prefix(12))) == true, "most recent first: \(buffer.rendered)")
        press(model, .end, .home, .pageDown, .pageUp, .down, .up)
        press(model, .escape)
        #expect(model.keyContext == .main)
        #expect(render(model).contains("Cat fact"))
        await model.shutdown()
    }

    @Test("y copies the fact through the terminal's clipboard and confirms it in one line")
    func copy() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let terminal = ScreenBuffer(size: Fixtures.large)
        let model = AppModel(options: sandbox.options(), effects: AppEffects.live.copying(to: terminal))
        model.start()
        await model.settle()
        let fact = try #require(model.mainState?.fact.text)
        press(model, .char("y"))
        #expect(terminal.clipboard == [fact])
        let screen = render(model)
        #expect(
            screen.lines.filter { $0.contains("Copied the fact to the clipboard") }.count == 1, "\(screen.rendered)")
        await model.shutdown()
    }

    @Test("r counts attempts: the splash says \"Retrying broken · attempt 2\", the error screen the attempt")
    func retryAttempts() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(environment: "broken"))
        model.start()
        await model.settle()
        #expect(model.errorState?.attempt == 1)
        #expect(!render(model).contains("attempt"))
        press(model, .char("r"))
        #expect(model.splashProgress?.attempt == 2)
        let splash = render(model)
        #expect(splash.contains("Retrying broken · attempt 2…"), "\(splash.rendered)")
        #expect(splash.text(at: 0).hasSuffix("Retrying"))
        await model.settle()
        #expect(model.errorState?.attempt == 2)
        #expect(render(model).contains("· attempt 2"))
        press(model, .char("r"))
        await model.settle()
        #expect(model.errorState?.attempt == 3)
        press(model, .char("e"), .char("k"), .enter)
        #expect(model.splashProgress?.attempt == 1, "another environment starts counting again")
        await model.settle()
        await model.shutdown()
    }

    @Test("On the error screen at 60×16, ↓ and End scroll a long error; the limit follows the drawn size")
    func errorScrolls() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(environment: "broken"))
        model.start()
        await model.settle()
        _ = render(model, size: Fixtures.small)
        press(model, .end)
        let view = try #require(model.currentScreen() as? ErrorView)
        #expect(model.scroll == view.maxScroll(in: Fixtures.small))
        press(model, .home)
        #expect(model.scroll == 0)
        await model.shutdown()
    }
}
