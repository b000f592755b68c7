import Foundation
import Weft

/// Registers the app's services for one environment.
///
/// Everything is lazy: the steps of ``AppPlan`` resolve what they need, and because the
/// services are singletons, steps running in parallel share one database, one server and
/// one repository — each created exactly once, whichever step asks first.
public enum AppServices {
    /// A container with the services of `environment`.
    ///
    /// - Parameters:
    ///   - database: An already open history database (carried over from an earlier run);
    ///     when `nil`, the database at `databaseURL` is opened on first use.
    ///   - servers: Receives every embedded server started, so it can be stopped later.
    public static func makeContainer(
        environment: Environment,
        databaseURL: URL,
        database: HistoryDatabase?,
        servers: RunningServers
    ) -> Container {
        let container = Container()
        container.register(Environment.self, instance: environment)

        if let database {
            container.register(HistoryDatabase.self, instance: database)
        } else {
            container.register(HistoryDatabase.self, lifetime: .singleton) { try HistoryDatabase(url: databaseURL) }
        }

        if case .embedded = environment.source {
            container.register(FactServer.self, lifetime: .singleton) { (_: Resolver) async throws -> FactServer in
                // `slow` must answer after the client gave up, whatever the timeout.
                let server = try FactServer.bundled(
                    fault: environment.fault, slowResponseDelay: environment.timeout + .seconds(1))
                try await server.start()
                await servers.add(server)
                return server
            }
        }

        container.register(FactService.self, lifetime: .singleton) { resolver in
            FactService(baseURL: try await baseURL(of: environment, resolver: resolver), timeout: environment.timeout)
        }

        container.register(FactRepository.self, lifetime: .singleton) { resolver in
            FactRepository(
                service: try await resolver.resolve(FactService.self),
                history: try await resolver.resolve(HistoryDatabase.self),
                environment: environment.name
            )
        }
        return container
    }

    private static func baseURL(of environment: Environment, resolver: Resolver) async throws -> URL {
        switch environment.source {
        case .remote(let url):
            return url
        case .embedded:
            let server = try await resolver.resolve(FactServer.self)
            guard let url = await server.baseURL else { throw FactServerError.stoppedUnexpectedly(reason: "it has no port") }
            return url
        }
    }
}
