import CoreMetrics
import FactKit
import Foundation
public import Logging
import Prometheus
import ServiceLifecycle
import Weft
import WeftInitializer
import WeftServiceLifecycle

/// `weft serve`: the bundled fact server on a fixed port until SIGINT or SIGTERM, for the
/// `staging` environment.
///
/// It runs on `WeftServiceLifecycle`, as a server app would: a traced start-up, then the server
/// as a `Service` in a `ServiceGroup` — a signal stops it gracefully, so requests in flight get
/// their answers — then the container is shut down. Its start-up's metrics (swift-metrics, into
/// a swift-prometheus registry) are served on `/metrics` in the Prometheus text format.
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
    ///   - name: The name of a fault to serve on purpose (see ``faultNames``), or `nil`.
    ///   - logger: Where the start-up, the service group and each request log (see
    ///     ``standardErrorLogger(level:)``); silent when `nil`.
    ///   - deadline: How long the start-up may take before it fails, naming the step still going;
    ///     no limit when `nil`.
    /// - Returns: ``ExitStatus/success`` once stopped by a signal, ``ExitStatus/usageError``
    ///   when the port cannot be listened on, ``ExitStatus/initializationFailed`` otherwise.
    @MainActor
    public static func run(port: UInt16, fault name: String?, logger: Logger? = nil, deadline: Duration? = nil) async
        -> ExitStatus
    {
        let fault = name.flatMap(ServerFault.init(rawValue:))
        let logger = logger ?? Logger(label: "weft.serve", factory: { _ in SwiftLogNoOpLogHandler() })
        // The process's own registry, bound to this run's task rather than bootstrapped globally.
        let registry = PrometheusCollectorRegistry()
        do {
            let initializer = try DependencyInitializer(
                createProcess: { ServeProcess() },
                // An id of its own: metrics label each step with its id (`step="facts"`).
                steps: [
                    .sync("facts", title: "Load the bundled facts") { process in
                        let server = try FactServer.bundled(
                            port: port, fault: fault, logger: logger, metrics: { registry.emitToBuffer() })
                        process.container.register(FactServer.self, instance: server)
                    }
                ],
                deadline: deadline
            )
            try await withMetricsFactory(PrometheusMetricsFactory(registry: registry)) {
                try await initializer.runServices(logger: logger) { result in
                    let server = try result.container.require(FactServer.self)
                    return [
                        .init(service: FactServerService(server: server, fault: fault), serviceName: "fact server")
                    ]
                } container: {
                    $0.container
                }
            }
            StandardStreams.writeError("weft serve: stopped")
            return .success
        } catch let failure as InitializationFailure<ServeProcess> {
            report(failure.error)
            return .initializationFailed
        } catch let error as FactServerError {
            report(error)
            switch error {
            case .cannotListen, .needsPrivileges, .portInUse: return .usageError
            case .noFacts, .stoppedUnexpectedly: return .initializationFailed
            }
        } catch {
            report(error)
            return .initializationFailed
        }
    }

    /// A logger writing to standard error at `level` (a swift-log level name; `info` when
    /// `nil` or unknown): a server in the foreground logs where its operator looks.
    public static func standardErrorLogger(level: String?) -> Logger {
        var logger = Logger(label: "weft.serve") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = level.flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }

    /// Writes why serving failed, with what to do about it when the app knows.
    private static func report(_ error: any Error) {
        if let summary = FailureAdvice.deadlineSummary(for: error) {
            StandardStreams.writeError(
                "weft serve: \(summary): \(error); allow longer with --startup-deadline SECONDS")
        } else if let error = error as? FactServerError {
            StandardStreams.writeError("weft serve: \(error); \(FailureAdvice.serveHint(for: error))")
        } else {
            StandardStreams.writeError("weft serve: \(error)")
        }
    }
}

/// What `weft serve`'s start-up builds: a container holding the server.
@MainActor
final class ServeProcess: DependencyInitializationProcess {
    let container = Container()
    var toContainer: Container { container }
}

/// The fact server as a swift-service-lifecycle `Service`.
struct FactServerService: Service {
    let server: FactServer
    let fault: ServerFault?

    func run() async throws {
        let count = await server.facts.count
        let behaviour = fault.map { " answering with the \($0) fault" } ?? ""
        try await server.serve { url in
            StandardStreams.writeOutput(
                "weft serve: \(count) cat facts on \(url.absoluteString)\(behaviour) (Ctrl-C to stop)")
        }
    }
}
