import ArgumentParser
import Foundation
import WeftApp

/// `weft history`: the facts shown so far; `weft history clear` forgets them.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the facts weft has shown, most recent first (or clear them).",
        subcommands: [List.self, Clear.self],
        defaultSubcommand: List.self
    )

    /// `weft history [list]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the facts shown: last seen, times seen, environment and fact."
        )

        @OptionGroup var settings: SettingsOptions

        @Flag(help: "One JSON object per fact: fact, timesSeen, lastSeen, environment.")
        var json = false

        @Option(help: ArgumentHelp("Show at most this many facts.", valueName: "n"))
        var limit: Int?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit).") }
        }

        func run() async throws {
            let database = try settings.settings().options.resolvedDatabase
            let status = await HistoryMode.list(database: database, json: json, limit: limit)
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }

    /// `weft history clear`.
    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Delete every fact from the history (asks first; --yes to skip the question)."
        )

        @OptionGroup var settings: SettingsOptions

        @Flag(help: "Clear without asking (needed without a terminal).")
        var yes = false

        func run() async throws {
            let database = try settings.settings().options.resolvedDatabase
            let status = await HistoryMode.clear(database: database, confirmed: yes, ask: HistoryMode.terminalPrompt)
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }
}
