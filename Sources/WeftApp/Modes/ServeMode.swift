import FactKit
import Foundation

/// `weft serve`: the bundled fact server on a fixed port until SIGINT or SIGTERM, for the
/// `staging` environment.
public enum ServeMode {
    /// The names of the faults the server can serve on purpose, such as `http-500`.
    public static var faultNames: [String] { ServerFault.names }

    /// Whether `name` is one of ``faultNames``.
    public static func isFault(_ name: String) -> Bool {
        ServerFault(rawValue: name) != nil
    }

    /// Serves until a termination signal; returns the status to exit with.
    ///
    /// - Parameters:
    ///   - port: The port on 127.0.0.1, 0 for any free port.
    ///   - fault: The name of a fault to serve on purpose (see ``faultNames``), or `nil`.
    /// - Returns: ``ExitStatus/success`` once stopped by a signal, ``ExitStatus/usageError``
    ///   when the port cannot be listened on, ``ExitStatus/initializationFailed`` otherwise.
    public static func run(port: UInt16, fault name: String?) async -> ExitStatus {
        let fault = name.flatMap(ServerFault.init(rawValue:))
        let server: FactServer
        do {
            server = try FactServer.bundled(port: port, fault: fault)
        } catch {
            report(error)
            return .initializationFailed
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
            return .success
        case .failure(let error as FactServerError):
            report(error)
            switch error {
            case .cannotListen, .needsPrivileges, .portInUse: return .usageError
            case .noFacts, .stoppedUnexpectedly: return .initializationFailed
            }
        case .failure(let error):
            report(error)
            return .initializationFailed
        }
    }

    /// Writes why serving failed, with what to do about it when the app knows.
    private static func report(_ error: any Error) {
        if let error = error as? FactServerError {
            StandardStreams.writeError("weft serve: \(error); \(FailureAdvice.serveHint(for: error))")
        } else {
            StandardStreams.writeError("weft serve: \(error)")
        }
    }
}
