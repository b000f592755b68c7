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
    static func makeContainer(
        environment: Environment,
        databaseURL: URL,
        database: HistoryDatabase?,
        logger: Logger? = nil
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
                try await HistoryDatabase.open(url: databaseURL)
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

    /// Every registration ``makeContainer(environment:databaseURL:database:logger:)`` makes for
    /// `environment`, with what each factory resolves.
    static func declarations(for environment: Environment) -> [ServiceDeclaration] {
        var declarations = [ServiceDeclaration(Environment.self), ServiceDeclaration(HistoryDatabase.self)]
        if case .embedded = environment.source {
            declarations.append(ServiceDeclaration(FactServer.self))
        }
        declarations.append(ServiceDeclaration(RunHTTPClient.self))
        if case .embedded = environment.source {
            declarations.append(ServiceDeclaration(FactService.self, resolves: [FactServer.self, RunHTTPClient.self]))
        } else {
            declarations.append(ServiceDeclaration(FactService.self, resolves: [RunHTTPClient.self]))
        }
        return declarations
    }

    /// The dependency graph of `environment`'s services, drawn from ``declarations(for:)``:
    /// stand-ins that only resolve their declared dependencies are registered in a throwaway
    /// container and the container library draws its graph. Nothing is opened, started or fetched.
    static func declaredGraph(for environment: Environment) async -> DependencyGraph {
        let container = Container()
        container.diagnostics.logger = AppLog.silent
        for declaration in declarations(for: environment) { declaration.registerStandIn(in: container) }
        return await container.graph()
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
