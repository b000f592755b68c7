import FactKit
import Foundation
import Testing
import WeftApp
import WeftInitializer

@testable import WeftTUI
@testable import WeftTerminal

/// A temporary directory with an environments file and a history database path, removed
/// by ``remove()``.
struct AppSandbox {
    let directory: URL

    /// `embedded` (default), `broken` (HTTP 500) and `slow` (answers after a long timeout).
    static let environmentsJSON = """
        {"environments": [
          {"name": "embedded", "description": "Bundled server, no network.", "source": "embedded", "timeoutSeconds": 5},
          {"name": "broken", "description": "Bundled server answering HTTP 500.", "source": "embedded", "fault": "http-500", "timeoutSeconds": 5},
          {"name": "slow", "description": "Bundled server that answers too late.", "source": "embedded", "fault": "slow", "timeoutSeconds": 120}
        ]}
        """

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("weft-app-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.environmentsJSON.utf8).write(to: directory.appendingPathComponent("environments.json"))
    }

    func options(environment: String? = nil) -> AppOptions {
        AppOptions(
            environmentName: environment,
            environmentsFile: directory.appendingPathComponent("environments.json"),
            databaseURL: directory.appendingPathComponent("history.sqlite")
        ).underTest
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Counts initialization runs and fetches from outside the model, around the real effects.
@MainActor
final class EffectLog {
    private(set) var runsStarted = 0
    private(set) var runsEnded = 0
    private(set) var peakRunsInFlight = 0
    private(set) var fetches = 0

    var effects: AppEffects {
        AppEffects(
            makeInitializer: AppEffects.live.makeInitializer,
            run: { initializer in
                self.runsStarted += 1
                self.peakRunsInFlight = max(self.peakRunsInFlight, self.runsStarted - self.runsEnded)
                defer { self.runsEnded += 1 }
                return try await AppEffects.live.run(initializer)
            },
            fetchNextFact: { repository in
                await self.countFetch()
                return try await AppEffects.live.fetchNextFact(repository)
            }
        )
    }

    private func countFetch() {
        fetches += 1
    }
}

/// Renders the model's current frame into a fresh buffer.
@MainActor
func render(_ model: AppModel, size: TerminalSize = Fixtures.large, tick: Int = 0, isMonochrome: Bool = false)
    -> ScreenBuffer
{
    let buffer = ScreenBuffer(size: size, isMonochrome: isMonochrome)
    let frame = model.frame(tick: tick, size: size)
    let layout = frame.screen.render(on: buffer, overlay: frame.overlay, commandLine: frame.commandLine)
    buffer.placeCursor(at: layout.focus, visible: layout.isTyping)
    model.record(layout)
    return buffer
}

/// Clicks (a left press, `count` of them for a double click) on the first cell of `text` as
/// the model's current frame draws it at `size`.
@MainActor
func click(
    _ model: AppModel, on text: String, count: Int = 1, size: TerminalSize = Fixtures.large,
    sourceLocation: SourceLocation = #_sourceLocation
) -> TerminalApp.Control {
    let buffer = render(model, size: size)
    guard let position = buffer.position(of: text) else {
        Issue.record("\(text) is not on screen:\n\(buffer.rendered)", sourceLocation: sourceLocation)
        return .proceed
    }
    var control = TerminalApp.Control.proceed
    for clickCount in 1...count {
        // Drawn again between the events, as the frame loop does after each.
        for event in [
            MouseEvent(.press(button: 0), row: position.row, column: position.column, clickCount: clickCount),
            MouseEvent(.release(button: 0), row: position.row, column: position.column),
        ] {
            if case .quit = control { return control }
            control = model.handle(.mouse(event))
            _ = render(model, size: size)
        }
    }
    return control
}

/// Types `text` on the command line, one character at a time.
@MainActor
func type(_ model: AppModel, _ text: String) {
    for character in text { press(model, .char(character)) }
}

/// A model over a fresh sandbox, its first run started in `environment` and ended; the caller
/// removes the sandbox.
@MainActor
func settledModel(environment: String? = nil) async throws -> (AppModel, AppSandbox) {
    let sandbox = try AppSandbox()
    let model = AppModel(options: sandbox.options(environment: environment))
    model.start()
    await model.settle()
    return (model, sandbox)
}

/// Sends keys to the model, expecting none of them to quit.
@MainActor
func press(_ model: AppModel, _ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) {
    for key in keys {
        #expect(model.handle(key) == .proceed, "\(key) should not quit", sourceLocation: sourceLocation)
    }
}

extension AppModel {
    var isOnMain: Bool { if case .main = stage { true } else { false } }
    var isOnError: Bool { if case .error = stage { true } else { false } }
    var isOnSplash: Bool { if case .splash = stage { true } else { false } }
    var mainState: MainState? { if case .main(let state) = stage { state } else { nil } }
    var errorState: ErrorState? { if case .error(let state) = stage { state } else { nil } }
    var splashProgress: SplashProgress? { if case .splash(let progress) = stage { progress } else { nil } }
    var menu: EnvironmentMenu? { if case .environmentMenu(let menu)? = panel { menu } else { nil } }

    /// Waits until the run in flight ended and its stage is shown.
    func untilIdle() async {
        await settle()
    }
}

extension AppOptions {
    /// These options with the step timeouts a test run can keep: ten times the plan's
    /// (``AppOptions/stepTimeoutScale``), since hundreds of tests at once on a loaded machine can
    /// hold a step past its timeout. Tests of timeouts move a clock of their own.
    var underTest: AppOptions {
        var options = self
        options.stepTimeoutScale = 10
        return options
    }
}
