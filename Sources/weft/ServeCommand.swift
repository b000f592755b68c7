import ArgumentParser
import FactKit
import WeftTUI

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

    @Option(help: ArgumentHelp(
        "Misbehave on purpose: \(ServerFault.names.joined(separator: ", ")).", valueName: "mode"))
    var fault: String?

    func validate() throws {
        if let fault, ServerFault(rawValue: fault) == nil {
            throw ValidationError(
                "Unknown fault \"\(fault)\"; choose one of: \(ServerFault.names.joined(separator: ", ")).")
        }
    }

    func run() async throws {
        let fault = fault.flatMap(ServerFault.init(rawValue:))
        let server: FactServer
        do {
            server = try FactServer.bundled(port: port, fault: fault)
        } catch {
            StandardStreams.writeError("weft serve: \(error)")
            throw ExitCode(ExitStatus.initializationFailed.rawValue)
        }
        let count = await server.facts.count
        let behaviour = fault.map { " answering with the \($0) fault" } ?? ""
        let signals = TerminationSignals()
        let serving = Task {
            try await server.run { url in
                StandardStreams.writeOutput("weft serve: \(count) cat facts on \(url.absoluteString)\(behaviour) (Ctrl-C to stop)")
            }
        }
        let interruptions = signals.interruptions
        let watcher = Task {
            for await _ in interruptions {
                serving.cancel()
                break
            }
        }
        let result = await serving.result
        signals.stop()
        await watcher.value
        switch result {
        case .success:
            StandardStreams.writeError("weft serve: stopped")
        case .failure(let error as FactServerError):
            StandardStreams.writeError("weft serve: \(error)")
            if case .cannotListen = error { throw ExitCode(ExitStatus.usageError.rawValue) }
            throw ExitCode(ExitStatus.initializationFailed.rawValue)
        case .failure(let error):
            StandardStreams.writeError("weft serve: \(error)")
            throw ExitCode(ExitStatus.initializationFailed.rawValue)
        }
    }
}
