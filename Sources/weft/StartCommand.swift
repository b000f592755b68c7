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

    @Flag(help: "Print one line per step, then the fact, instead of the full-screen app.")
    var plain = false

    @Flag(help: "Print one JSON object per line instead of the full-screen app (implies --plain).")
    var json = false

    func run() async throws {
        let settings = try settings.settings()
        let options = settings.options
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
