import ArgumentParser
import Foundation
import WeftApp

/// The options every command that reads settings accepts; each overrides its `WEFT_*`
/// variable and `config.json`.
struct SettingsOptions: ParsableArguments {
    @Option(
        name: .customLong("env"),
        help: ArgumentHelp(
            "The environment to start in (default: WEFT_ENV, config.json, else the first one).", valueName: "name"))
    var environmentName: String?

    @Option(
        help: ArgumentHelp(
            "An environments file replacing the bundled list for this run (WEFT_ENVIRONMENTS or config.json name a file added to it instead).",
            valueName: "file"))
    var environments: String?

    @Option(
        help: ArgumentHelp(
            "The history database (default: WEFT_DATABASE, config.json, else the history path below).",
            valueName: "path"))
    var database: String?

    @Option(
        help: ArgumentHelp(
            "How much weft logs to its log file: trace, debug, info, notice, warning (default), error or critical (also WEFT_LOG_LEVEL).",
            valueName: "level"))
    var logLevel: String?

    @Option(
        help: ArgumentHelp(
            "Stop a start-up that takes longer than this many seconds (such as 30 or 2.5), naming the step that held it up (also WEFT_STARTUP_DEADLINE; default: no limit).",
            valueName: "seconds"))
    var startupDeadline: String?

    /// An empty path is a mistake on the command line: say so, rather than let it name the
    /// current directory.
    func validate() throws {
        if database?.isEmpty == true {
            throw ValidationError(
                "--database: the path is empty; give the history file's path, or leave --database out to use the default."
            )
        }
        if environments?.isEmpty == true {
            throw ValidationError(
                "--environments: the path is empty; give an environments file's path, or leave --environments out to use the bundled one."
            )
        }
    }

    /// The settings, all layers resolved; a bad `config.json` or value exits with status 2.
    /// `mouse` and `a11y` are the full-screen app's flags (`weft start` has them).
    func settings(mouse: String? = nil, a11y: String? = nil) throws -> AppSettings {
        do {
            return try AppSettings(
                flags: .init(
                    environmentName: environmentName,
                    environmentsFile: environments.map(Self.absolute),
                    database: database.map(Self.absolute),
                    logLevel: logLevel,
                    startupDeadline: startupDeadline,
                    mouse: mouse,
                    a11y: a11y),
                environment: ProcessInfo.processInfo.environment)
        } catch {
            StandardStreams.writeError("weft: \(error)")
            throw ExitCode(ExitStatus.usageError.rawValue)
        }
    }

    /// A path from the command line, relative to the working directory.
    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).path
    }
}
