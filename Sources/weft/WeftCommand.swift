import ArgumentParser
import Foundation
import WeftApp
import WeftTUI

/// `weft`: cat facts from an app that initializes in phases; the full-screen app in a
/// terminal, plain lines (or JSON lines) otherwise.
@main
struct WeftCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        let paths = WeftPaths(environment: ProcessInfo.processInfo.environment)
        return CommandConfiguration(
            commandName: "weft",
            abstract: "Cat facts in your terminal, from an app that starts up in phases.",
            discussion: """
                weft [--env NAME] [--environments FILE] [--database PATH] [--startup-deadline SECONDS] [--no-mouse] [--a11y] [--plain] [--json]

                Without a subcommand (or with `start`), weft initializes in the chosen environment and shows a cat fact: \
                full-screen in a terminal, as plain lines with --plain or when input or output is not a \
                terminal (or TERM=dumb), as JSON lines with --json.

                Bundled environments: embedded (no network needed), staging (a server on port 8089, \
                start one with `weft serve`), production (catfact.ninja), broken (always fails). \
                `weft environments` lists them with yours.

                Files:
                  settings      \(paths.configFile.path)
                  environments  \(paths.userEnvironmentsFile.path)
                  history       \(paths.defaultDatabase.path)
                  log           \(paths.logFile.path)
                Settings, highest first: flags, then WEFT_ENV, WEFT_DATABASE, WEFT_ENVIRONMENTS, \
                WEFT_LOG_LEVEL, WEFT_STARTUP_DEADLINE, WEFT_MOUSE, WEFT_A11Y, then config.json, then defaults; \
                `weft config` shows each.

                Keys in the app:
                \(InteractiveApp.keySummary.map { "  " + $0 }.joined(separator: "\n"))

                Exit status: 0 ok, 1 initialization failed, 2 usage or environment error, \
                3 started without the history (degraded), 130 interrupted (Ctrl-C), 143 terminated.
                """,
            version: "0.1.0",
            subcommands: [
                StartCommand.self, ServeCommand.self, StartupCommand.self, GraphCommand.self, HistoryCommand.self,
                EnvironmentsCommand.self,
                ConfigCommand.self,
            ],
            defaultSubcommand: StartCommand.self
        )
    }
}
