import FactKit
import Testing
import WeftTestSupport

@testable import WeftTUI
@testable import WeftTerminal

/// Random key sequences against the real plan: the model must never trap and never have
/// two initialization runs in flight.
@MainActor
@Suite("App model under random keys", .timeLimit(.minutes(3)))
struct AppModelRandomKeysTests {
    /// Every key the app knows and some it does not; menu keys weighted up so the walk
    /// switches environments often.
    static let keys: [Key] = [
        .char("e"), .char("e"), .char("j"), .char("j"), .enter, .enter,
        .char("n"), .char("e"), .char("d"), .char("r"), .char("?"), .char("q"), .char("j"), .char("k"),
        .char("x"), .char("猫"), .up, .down, .left, .enter, .enter, .escape, .tab, .backspace, .unknown(999), .resize,
        .char(":"), .char("h"), .char("s"), .home, .end, .mouse(MouseEvent(.wheelUp, row: 0, column: 0)),
        .mouse(MouseEvent(.press(button: 0), row: 0, column: 0)),
        .mouse(MouseEvent(.press(button: 0), row: 0, column: 0)),
    ]
    static let sizes: [TerminalSize] = [
        TerminalSize(rows: 24, columns: 80), TerminalSize(rows: 16, columns: 60), TerminalSize(rows: 15, columns: 59),
        TerminalSize(rows: 12, columns: 50), TerminalSize(rows: 40, columns: 120), TerminalSize(rows: 1, columns: 1),
        TerminalSize(rows: 0, columns: 0),
    ]

    @Test(
        "Hundreds of random keys, clicks, commands and resizes never trap and never start a second run in flight",
        arguments: [1, 42, 2024, 7] as [UInt64])
    func randomKeys(seed: UInt64) async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let log = EffectLog()
        var random = SplitMix64(state: seed)
        // Only environments that answer at once: the bundled server, healthy or failing.
        // Odd seeds start in the failing environment, even ones in the healthy one.
        let start = seed % 2 == 0 ? "embedded" : "broken"
        let model = AppModel(
            options: sandbox.options(environment: start), logo: InteractiveApp.logo(), effects: log.effects)
        model.start()
        let buffer = ScreenBuffer(size: Fixtures.large)
        var visited: Set<String> = []
        for step in 0..<300 {
            var key = Self.keys.randomElement(using: &random) ?? .none
            if key == .resize {
                buffer.resize(to: Self.sizes.randomElement(using: &random) ?? Fixtures.large)
                key = buffer.readKey()
            }
            if case .mouse(var event) = key {
                // Anywhere on the screen; a press once or twice, or the wheel either way.
                event.row = Int.random(in: -1...buffer.size.rows, using: &random)
                event.column = Int.random(in: -1...buffer.size.columns, using: &random)
                if case .press = event.kind { event.clickCount = Int.random(in: 1...2, using: &random) }
                if event.kind == .wheelUp, Bool.random(using: &random) { event.kind = .wheelDown }
                key = .mouse(event)
            }
            // Never let the random walk reach the slow environment (it would only wait).
            if key == .enter, model.menu?.selected?.name == "slow" { key = .char("k") }
            if case .mouse(var event) = key, model.menu != nil, event.clickCount > 1 {
                event.clickCount = 1
                key = .mouse(event)
            }
            if key == .enter, let prompt = model.commandPrompt, prompt.text.contains("slow") { key = .escape }
            _ = model.handle(key)
            let frame = model.frame(tick: step)
            model.record(frame.screen.render(on: buffer, overlay: frame.overlay, commandLine: frame.commandLine))
            visited.insert(
                model.stage.name + (model.menu != nil ? "+menu" : model.panel != nil ? "+diagnostics" : "")
                    + (model.isHelpVisible ? "+help" : ""))
            #expect(model.runsStarted - model.runsCompleted <= 1)
            #expect(log.runsStarted - log.runsEnded <= 1)
            // Let work progress: sometimes only a little, sometimes until it ends.
            if Int.random(in: 0..<4, using: &random) == 0 { await model.settle() } else { await Task.yield() }
        }
        await model.shutdown()
        #expect(log.peakRunsInFlight == 1)
        #expect(model.runsStarted == model.runsCompleted)
        #expect(log.runsStarted == model.runsStarted && log.runsEnded == log.runsStarted)
        #expect(model.runsStarted > 1, "the walk switched environments at least once: \(visited.sorted())")
        #expect(visited.contains(start == "embedded" ? "main" : "error"), "\(visited.sorted())")
        #expect(visited.contains("splash") && visited.count > 4, "\(visited.sorted())")
    }
}
