import ArgumentParser
import Foundation
import WeftApp
import WeftTUI

/// `weft` or `weft start`: the app itself, full-screen in a terminal, plain or JSON lines otherwise.
struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start weft and show a cat fact (the default): full-screen, or --plain / --json lines."
    )

    @OptionGroup var settings: SettingsOptions

    @Flag(
        name: .customLong("no-mouse"),
        help:
            "Leave the mouse to the terminal, for selecting text: no clicks or wheel in the full-screen app (also WEFT_MOUSE=off)."
    )
    var noMouse = false

    @Flag(
        name: .customLong("a11y"),
        help:
            "Draw the cursor on what has the focus, for screen readers, braille displays and magnifiers (also WEFT_A11Y=on; the cursor is there, hidden, either way)."
    )
    var a11y = false

    @Flag(help: "Print one line per step, then the fact, instead of the full-screen app.")
    var plain = false

    @Flag(help: "Print one JSON object per line instead of the full-screen app (implies --plain).")
    var json = false

    @Option(
        name: .customLong("trace-file"),
        help: ArgumentHelp(
            "Write each start-up run to this file as a Chrome trace (open it in ui.perfetto.dev).",
            valueName: "path"))
    var traceFile: String?

    func validate() throws {
        guard let traceFile else { return }
        guard !traceFile.isEmpty else { throw ValidationError("--trace-file needs a file path.") }
        // Fail before starting up, not after: the trace is written when each run ends.
        let url = URL(fileURLWithPath: traceFile)
        guard FileManager.default.createFile(atPath: url.path, contents: Data("{\"traceEvents\":[]}\n".utf8)) else {
            throw ValidationError(
                "Cannot write the trace file \(url.path): check that its folder exists and is writable.")
        }
    }

    func run() async throws {
        let settings = try settings.settings(mouse: noMouse ? "off" : nil, a11y: a11y ? "on" : nil)
        var options = settings.options
        options.traceFile = traceFile.map { URL(fileURLWithPath: $0) }
        var notice: String?
        if !plain, !json, StandardStreams.areTerminals {
            // Input mistakes (an unknown --env, a malformed environments file) exit 2
            // before the full-screen app takes the terminal.
            if let status = StartupCheck.run(options: options) { throw ExitCode(status.rawValue) }
            let status: Int32?
            do {
                status = try await InteractiveApp.run(
                    options: options, environment: ProcessInfo.processInfo.environment)
            } catch {
                // Only a terminal that cannot be used lands here: fall back to plain output.
                status = nil
                notice = "\(error); showing plain output instead"
            }
            if let status { throw ExitCode(status) }
        }
        let status = await PlainMode.run(options: options, format: json ? .json : .text, notice: notice)
        throw ExitCode(status.rawValue)
    }
}
