// The worked example of Sources/WeftServiceLifecycle/WeftServiceLifecycle.docc: a server from
// `main` to graceful shutdown. The app's types are in Assumed.swift (the article shows all but `Settings`).

// doc begins
import Logging
import ServiceLifecycle
import Weft
import WeftInitializer
import WeftServiceLifecycle

/// What start-up fills: the settings, then the container that serves the app.
@MainActor final class Server: DependencyInitializationProcess {
    let container = Container()
    var settings = Settings()
    var toContainer: Container { container }
}

let steps: [InitializationStep<Server>] = [
    .sync("settings", title: "Read the settings") { server in
        server.settings = try Settings.load()
        server.container.register(Settings.self, instance: server.settings)
    },
    .async(
        "database", title: "Open the database pool", after: ["settings"],
        timeout: .seconds(10), retry: .exponential(attempts: 3)
    ) { server in
        try await DatabasePool.open(await server.settings.databaseURL)
    } apply: { server, pool in
        server.container.register(DatabasePool.self, owning: pool)  // the container closes it
    },
    .sync("http", title: "Register the HTTP server", after: ["database"]) { server in
        server.container.register(HTTPServer.self, lifetime: .singleton) { resolver in
            HTTPServer(
                port: try resolver.resolve(Settings.self).port,
                pool: try resolver.resolve(DatabasePool.self))
        }
    },
]

try await DependencyInitializer(createProcess: { Server() }, steps: steps)
    .runServices(logger: Logger(label: "server")) { result in
        [.init(service: try await result.container.resolveAsync(HTTPServer.self))]
    } container: {
        $0.container
    }
print(await closed.order)  // ["http server", "database pool"]
// doc ends
