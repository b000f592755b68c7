import ArgumentParser
import WeftApp

/// `weft startup`: where the start-up's time went, like `systemd-analyze critical-chain` and `blame`.
struct StartupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: "Start up once without the full-screen app and print the critical chain and blame.",
        discussion: """
            Runs the start-up in the chosen environment (fetching a fact and recording it in the history, \
            as `weft --plain` does), then prints the chain of steps that decided the total time and every \
            step by its own duration. Exits as `weft --plain` would for the same run.
            """
    )

    @OptionGroup var settings: SettingsOptions

    @Flag(help: "Print one JSON object: every step's timings, the critical chain and the blame list.")
    var json = false

    func run() async throws {
        let status = await StartupMode.run(options: try settings.settings().options, json: json)
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
