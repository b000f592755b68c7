import ArgumentParser
import Foundation
import WeftApp
import WeftTUI

/// `weft`: cat facts from an app that initializes in phases; the full-screen app in a
/// terminal, plain lines (or JSON lines) otherwise.
@main
struct WeftCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weft",
        abstract: "Cat facts in your terminal, from an app that starts up in phases.",
        discussion: """
            Without a subcommand, weft initializes in the chosen environment and shows a cat fact: \
            full-screen in a terminal, as plain lines with --plain or when input or output is not a \
            terminal, as JSON lines with --json.

            Bundled environments: embedded (no network needed), staging (a server on port 8089, \
            start one with `weft serve`), production (catfact.ninja), broken (always fails).

            Exit status: 0 ok, 1 initialization failed, 2 usage or environment error, \
            130 interrupted (Ctrl-C), 143 terminated.
            """,
        version: "0.1.0",
        subcommands: [ServeCommand.self, GraphCommand.self]
    )

    @Option(name: .customLong("env"), help: ArgumentHelp("The environment to start in (default: the first one).", valueName: "name"))
    var environmentName: String?

    @Option(help: ArgumentHelp("An environments file to use instead of the bundled one.", valueName: "file"))
    var environments: String?

    @Option(help: ArgumentHelp(
        "The history database (default: $XDG_DATA_HOME/weft/history.sqlite, or ~/.local/share/weft/history.sqlite).",
        valueName: "path"))
    var database: String?

    @Flag(help: "Print one line per step, then the fact, instead of the full-screen app.")
    var plain = false

    @Flag(help: "Print one JSON object per line instead of the full-screen app (implies --plain).")
    var json = false

    /// An empty path is a mistake on the command line: say so, rather than let it name the
    /// current directory.
    func validate() throws {
        if database?.isEmpty == true {
            throw ValidationError("--database: the path is empty; give the history file's path, or leave --database out to use the default.")
        }
        if environments?.isEmpty == true {
            throw ValidationError("--environments: the path is empty; give an environments file's path, or leave --environments out to use the bundled one.")
        }
    }

    /// The options the app's initialization plan reads.
    var options: AppOptions {
        AppOptions(
            environmentName: environmentName,
            environmentsFile: environments.map { URL(fileURLWithPath: $0) },
            databaseURL: database.map { URL(fileURLWithPath: $0) })
    }

    func run() async throws {
        var notice: String?
        if !plain, !json, StandardStreams.areTerminals {
            // Input mistakes (an unknown --env, a malformed --environments file) exit 2
            // before the full-screen app takes the terminal.
            if let status = StartupCheck.run(options: options) { throw ExitCode(status.rawValue) }
            let status: Int32?
            do {
                status = try await InteractiveApp.run(options: options, environment: ProcessInfo.processInfo.environment)
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
