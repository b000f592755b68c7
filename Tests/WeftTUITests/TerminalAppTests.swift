import Testing
import WeftApp

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Frame loop")
struct TerminalAppTests {
    @Test("Keys reach the handler in order and a quit ends the loop with its exit code")
    func quits() async {
        let buffer = ScreenBuffer(size: Fixtures.large)
        buffer.enqueue(.char("n"), .down, .char("q"), .char("x"))
        var seen: [Key] = []
        let app = TerminalApp(terminal: buffer, frameInterval: .milliseconds(1))
        let status = await app.run(
            onKey: { key in
                seen.append(key)
                return key == .char("q") ? .quit(exitCode: 0) : .proceed
            },
            frame: { _ in TerminalApp.Frame(screen: Fixtures.fact) }
        )
        #expect(status == 0)
        #expect(seen == [.char("n"), .down, .char("q")])
        #expect(buffer.readKey() == .char("x"))
        #expect(buffer.contains("seen 3 times"))
        #expect(buffer.flushCount >= 1)
    }

    @Test("Frames redraw with an advancing tick, and a resize re-lays out the next frame")
    func animatesAndResizes() async {
        let buffer = ScreenBuffer(size: Fixtures.large)
        var ticks: [Int] = []
        let app = TerminalApp(terminal: buffer, frameInterval: .milliseconds(1))
        let status = await app.run(
            onKey: { key in key == .resize ? .proceed : .quit(exitCode: 7) },
            frame: { tick in
                ticks.append(tick)
                if tick == 2 { buffer.resize(to: Fixtures.tooSmall) }
                if tick == 4 { buffer.enqueue(.char("q")) }
                var view = Fixtures.splash
                view.steps[1].state = .running(frame: tick)
                return TerminalApp.Frame(screen: view)
            }
        )
        #expect(status == 7)
        #expect(ticks == [0, 1, 2, 3, 4])
        #expect(buffer.contains("Terminal too small: 39×11"))
    }

    @Test("A quit signal ends the loop with 130 or 143")
    func interrupted() async {
        for interruption in [Interruption.interrupt, .terminate] {
            let buffer = ScreenBuffer(size: Fixtures.large)
            let app = TerminalApp(terminal: buffer, frameInterval: .milliseconds(1))
            let status = await app.run(
                onKey: { _ in .proceed },
                frame: { tick in
                    if tick == 1 { buffer.interruption = interruption }
                    return TerminalApp.Frame(screen: Fixtures.error, overlay: Fixtures.help)
                }
            )
            #expect(status == interruption.exitCode)
            #expect(buffer.flushCount == 2)  // one frame per tick, tick 0 and 1
            #expect(buffer.contains("┌─ Help "))
        }
    }

    @Test("Other main-actor work runs while the loop waits between frames")
    func yieldsToOtherWork() async {
        let buffer = ScreenBuffer(size: Fixtures.large)
        let app = TerminalApp(terminal: buffer, frameInterval: .milliseconds(1))
        var finished = false
        let work = Task { @MainActor in finished = true }
        let status = await app.run(
            onKey: { _ in .quit(exitCode: 0) },
            frame: { _ in
                if finished { buffer.enqueue(.char("q")) }
                return TerminalApp.Frame(screen: Fixtures.fact)
            }
        )
        await work.value
        #expect(status == 0 && finished)
    }
}
