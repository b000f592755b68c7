import ArgumentParser
import Foundation
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

            With --runs N it starts up N times, one after the other, and adds the median and 90th \
            percentile of ready and total. With --budget FILE it checks the runs against that JSON budget \
            (ready, total and per-step limits on the median and 90th percentile; weft's own is \
            Assets/startup-budget.json) and exits 4 naming each limit broken.
            """
    )

    @OptionGroup var settings: SettingsOptions

    @Flag(help: "Print one JSON object: every step's timings, the critical chain and the blame list.")
    var json = false

    @Option(help: "How many times to start up, one after the other (1 to 1000).")
    var runs = 1

    @Option(help: ArgumentHelp("Check the runs against this start-up budget (JSON).", valueName: "file"))
    var budget: String?

    func validate() throws {
        guard (1...1_000).contains(runs) else {
            throw ValidationError("--runs must be between 1 and 1000, not \(runs)")
        }
    }

    func run() async throws {
        let status = await StartupMode.run(
            options: try settings.settings().options, json: json, runs: runs,
            budgetFile: budget.map { URL(fileURLWithPath: $0) })
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
