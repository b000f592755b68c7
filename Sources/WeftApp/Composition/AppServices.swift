import AsyncHTTPClient
import FactKit
import Foundation
import Logging
import Weft

/// Registers the app's services for one environment, and declares them for the graph.
///
/// Everything is lazy: the steps of ``AppPlan`` resolve what they need, and because the
/// services are singletons, steps running in parallel share one database, one server and
/// one repository — each created exactly once, whichever step asks first.
enum AppServices {
    /// A container with the services of `environment`.
    ///
    /// - Parameters:
    ///   - database: An already open history database (carried over from an earlier run);
    ///     when `nil`, the database at `databaseURL` is opened on first use.
    ///
    /// The server and the HTTP client are ``Disposable``: `container.shutdown()` stops them.
    /// The database carried over is registered as an instance, so it outlives the container.
    ///   - historyProblem: Told why the database could not be opened, when it could not.
    static func makeContainer(
        environment: Environment,
        databaseURL: URL,
        database: HistoryDatabase?,
        logger: Logger? = nil,
        historyProblem: (@Sendable (any Error) async -> Void)? = nil
    ) -> Container {
        let container = Container()
        if let logger {
            container.diagnostics.logger = logger
            // At debug, the log traces every resolution (the container logs each one it traces).
            if logger.logLevel <= .debug { container.diagnostics.onResolution = { _ in } }
        }
        container.register(Environment.self, instance: environment)

        if let database {
            container.register(HistoryDatabase.self, instance: database)
        } else {
            container.register(HistoryDatabase.self, lifetime: .singleton) {
                (_: Resolver) async throws -> HistoryDatabase in
                do {
                    return try await HistoryDatabase.open(url: databaseURL)
                } catch {
                    await historyProblem?(error)
                    throw error
                }
            }
        }

        if case .embedded = environment.source {
            container.register(FactServer.self, lifetime: .singleton) { (_: Resolver) async throws -> FactServer in
                // `slow` must answer after the client gave up, whatever the timeout.
                let server = try FactServer.bundled(
                    fault: environment.fault, slowResponseDelay: environment.timeout + .seconds(1))
                try await server.start()
                return server
            }
        }

        // One HTTP client for the run, shut down with the run's other services.
        container.register(RunHTTPClient.self, lifetime: .singleton) { RunHTTPClient(FactService.makeHTTPClient()) }

        container.register(FactService.self, lifetime: .singleton) { resolver in
            let baseURL = try await baseURL(of: environment, resolver: resolver)
            return FactService(
                baseURL: baseURL, timeout: environment.timeout,
                client: try await resolver.resolve(RunHTTPClient.self).client)
        }
        return container
    }

    /// Every registration ``makeContainer(environment:databaseURL:database:logger:historyProblem:)``
    /// makes for an environment (``Environment/source`` `.embedded` or not), with what each factory
    /// resolves; a test holds them to the real factories.
    static func declarations(embedded: Bool) -> [DependencyGraph.DeclaredService] {
        var declarations: [DependencyGraph.DeclaredService] = [
            .init(Environment.self, isAsync: false), .init(HistoryDatabase.self),
        ]
        if embedded { declarations.append(.init(FactServer.self)) }
        declarations.append(.init(RunHTTPClient.self, isAsync: false))
        declarations.append(
            .init(
                FactService.self,
                resolves: (embedded ? [ServiceKey(FactServer.self)] : []) + [ServiceKey(RunHTTPClient.self)]))
        return declarations
    }

    /// The dependency graph of an environment's services (embedded or not), drawn from
    /// ``declarations(embedded:)``: nothing is opened, started or fetched.
    static func declaredGraph(embedded: Bool) -> DependencyGraph {
        DependencyGraph(declaring: declarations(embedded: embedded))
    }

    private static func baseURL(of environment: Environment, resolver: Resolver) async throws -> URL {
        switch environment.source {
        case .remote(let url):
            return url
        case .embedded:
            let server = try await resolver.resolve(FactServer.self)
            guard let url = await server.baseURL else {
                throw FactServerError.stoppedUnexpectedly(reason: "it has no port")
            }
            return url
        }
    }
}
