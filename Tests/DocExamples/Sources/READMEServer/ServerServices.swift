import ServiceLifecycle
import Weft

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

// What the README's server block leaves to the app: the services and the function that
// registers them, as the container example registers its own (Database with an async factory).

/// What was disposed, in order.
actor Disposals {
    private(set) var order: [String] = []
    func note(_ name: String) { order.append(name) }
}

let disposals = Disposals()

final class Database: Disposable {
    static func open() async throws -> Database { Database() }
    func dispose() async throws { await disposals.note("database") }
}

/// Serves until a graceful shutdown; it sends the SIGTERM that asks for one itself, as a
/// deployment would, so that the example ends.
final class HTTPServer: Service, Disposable {
    let database: Database
    init(database: Database) { self.database = database }

    func run() async throws {
        print("serving")
        kill(getpid(), SIGTERM)
        try await gracefulShutdown()
        print("stopped")
    }

    func dispose() async throws { await disposals.note("server") }
}

func registerServices(in container: Container) {
    container.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
    container.register(HTTPServer.self, lifetime: .singleton) { resolver in
        HTTPServer(database: try await resolver.resolve(Database.self))
    }
}
