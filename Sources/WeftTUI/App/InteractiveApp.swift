import Foundation
import Weft
public import WeftApp
import WeftAssets
public import WeftTerminal

/// Runs the full-screen app until the person quits. Returns the process exit code
/// (0 quit, 130 SIGINT, 143 SIGTERM). Throws TerminalError when there is no usable
/// terminal (caller falls back to plain mode or exits 2).
@MainActor
public enum InteractiveApp {
    /// Opens the terminal, shows the splash while the first run initializes, and runs the
    /// app until the person quits or a quit signal arrives; always restores the terminal.
    ///
    /// - Parameters:
    ///   - options: The command-line options.
    ///   - environment: The process environment (`TERM`, `NO_COLOR`). Mouse reporting and
    ///     the drawn cursor follow `options` (`AppOptions.mouse`, `AppOptions.showsCursor`).
    /// - Returns: 0 after `q`, 130 after SIGINT or Ctrl-C, 143 after SIGTERM.
    /// - Throws: `TerminalError` when standard input/output is not a usable terminal.
    public static func run(options: AppOptions, environment: [String: String]) async throws(TerminalError) -> Int32 {
        let terminal = try NCursesTerminal(environment: environment, mouse: options.mouse)
        let screens = ScreenComposition.container(
            options: options, logo: logo(isUnicode: terminal.isUnicode), effects: AppEffects.live.copying(to: terminal))
        let model: AppModel
        do {
            model = try screens.require(AppModel.self)
        } catch {
            // A mistake in the composition root: say which, with the terminal given back.
            terminal.shutdown()
            FileHandle.standardError.write(Data("weft: cannot start the full-screen app: \(error)\n".utf8))
            return ExitStatus.initializationFailed.rawValue
        }
        model.start()
        let status = await TerminalApp(terminal: terminal, showsCursor: options.showsCursor).run(
            onKey: { key in model.handle(key) },
            frame: { tick in model.frame(tick: tick, size: terminal.size) },
            drawn: { layout in model.record(layout) }
        )
        await model.shutdown()
        terminal.shutdown()
        return status
    }

    /// The app's keys, one line per screen, for `weft --help`: `main: n next fact · …`.
    public nonisolated static var keySummary: [String] {
        KeyMap.summary
    }

    /// The bundled logo (`Assets/logo.txt`, or `Assets/logo-ascii.txt` for a terminal that
    /// cannot show Unicode), trailing blank lines removed; empty if missing.
    static func logo(isUnicode: Bool = true) -> [String] {
        guard let data = try? WeftAssets.data(named: isUnicode ? "logo.txt" : "logo-ascii.txt") else { return [] }
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        return lines
    }
}
