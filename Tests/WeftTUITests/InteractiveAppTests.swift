import FactKit
import Foundation
import Testing

@testable import WeftApp
@testable import WeftTUI
@testable import WeftTerminal

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
@Suite("Interactive app", .timeLimit(.minutes(2)))
struct InteractiveAppTests {
    @Test("The bundled logo is small: at most 5 lines of at most 40 columns, and not the placeholder")
    func logo() {
        let logo = InteractiveApp.logo()
        #expect(!logo.isEmpty && logo.count <= 5)
        #expect(logo.allSatisfy { TextLayout.width(of: $0) <= 40 })
        #expect(logo != ["weft"])
    }

    @Test("The ASCII logo, for terminals without Unicode, is ASCII of the same small size")
    func asciiLogo() {
        let logo = InteractiveApp.logo(isUnicode: false)
        #expect(!logo.isEmpty && logo.count <= 5)
        #expect(
            logo.allSatisfy { line in TextLayout.width(of: line) <= 40 && line.unicodeScalars.allSatisfy { $0.isASCII }
            })
    }

    @Test("Without a terminal, run throws notATerminal instead of drawing into a pipe")
    func noTerminal() async throws {
        // Only meaningful (and only safe) when the test process has no terminal.
        guard isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0 else { return }
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        await #expect(throws: TerminalError(.notATerminal)) {
            _ = try await InteractiveApp.run(options: sandbox.options(), environment: ["TERM": "xterm-256color"])
        }
    }

    @Test("The frame loop drives the model: animated splash frames, then the fact, then q quits with 0")
    func frameLoop() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(), logo: InteractiveApp.logo())
        let buffer = ScreenBuffer(size: Fixtures.large)
        var splashFrames = 0
        var sawFact = false
        model.start()
        let status = await TerminalApp(terminal: buffer, frameInterval: .milliseconds(1)).run(
            onKey: { key in model.handle(key) },
            frame: { tick in
                if model.isOnSplash { splashFrames += 1 }
                if model.isOnMain, !sawFact {
                    sawFact = true
                    buffer.enqueue(.char("q"))
                }
                return model.frame(tick: tick)
            }
        )
        await model.shutdown()
        #expect(status == 0)
        #expect(splashFrames >= 1)
        #expect(buffer.contains("Cat fact"), "\(buffer.rendered)")
        #expect(model.isShutDown && !model.isRunInFlight)
    }

    @Test("A quit signal during the splash ends the loop with 130; shutdown cancels the run")
    func interruptedSplash() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let model = AppModel(options: sandbox.options(environment: "slow"))
        let buffer = ScreenBuffer(size: Fixtures.small)
        model.start()
        let status = await TerminalApp(terminal: buffer, frameInterval: .milliseconds(1)).run(
            onKey: { key in model.handle(key) },
            frame: { tick in
                if let progress = model.splashProgress, progress.progress.values.contains(.running) {
                    buffer.interruption = .interrupt
                }
                return model.frame(tick: tick)
            }
        )
        #expect(status == 130)
        #expect(model.isRunInFlight)
        await model.shutdown()
        #expect(!model.isRunInFlight && model.isOnSplash)
    }
}
