import ArgumentParser
import WeftApp

/// `weft serve`: the bundled fact server on a fixed port, for the `staging` environment.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the bundled cat facts over HTTP on 127.0.0.1 until Ctrl-C.",
        discussion: """
            Speaks the catfact.ninja contract (GET /fact). The staging environment expects it \
            on port 8089: run `weft serve` in one terminal and `weft --env staging` in another.
            """
    )

    @Option(help: ArgumentHelp("The port to listen on, 0 for any free port", valueName: "n"))
    var port: UInt16 = 8089

    @Option(
        help: ArgumentHelp(
            "Misbehave on purpose: \(ServeMode.faultNames.joined(separator: ", ")).", valueName: "mode"))
    var fault: String?

    @Option(
        help: ArgumentHelp(
            "What weft serve logs to standard error: \(AppSettings.logLevels.joined(separator: ", ")) (default info: a line per request; debug adds a span per request and start-up step).",
            valueName: "level"))
    var logLevel: String?

    @Option(
        help: ArgumentHelp(
            "Fail a start-up that takes longer than this many seconds (such as 30 or 2.5), naming the step still going (default: no limit).",
            valueName: "seconds"))
    var startupDeadline: String?

    func validate() throws {
        if let startupDeadline, AppSettings.deadline(seconds: startupDeadline) == nil {
            throw ValidationError(
                "--startup-deadline: \"\(startupDeadline)\" is not valid; expected \(AppSettings.deadlineExpectation).")
        }
        if let logLevel, !AppSettings.logLevels.contains(logLevel) {
            throw ValidationError(
                "Unknown log level \"\(logLevel)\"; choose one of: \(AppSettings.logLevels.joined(separator: ", ")).")
        }
        if let fault, !ServeMode.isFault(fault) {
            throw ValidationError(
                "Unknown fault \"\(fault)\"; choose one of: \(ServeMode.faultNames.joined(separator: ", ")).")
        }
    }

    func run() async throws {
        let logger = ServeMode.standardErrorLogger(level: logLevel)
        AppTracing.bootstrap(logger: logger)
        let status = await ServeMode.run(
            port: port, fault: fault, logger: logger,
            deadline: startupDeadline.flatMap(AppSettings.deadline(seconds:)))
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
