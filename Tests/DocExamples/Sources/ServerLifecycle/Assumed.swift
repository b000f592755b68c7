import ServiceLifecycle
import Weft

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

// The app's types: `Settings` is left to the app; the article shows the rest.

struct Settings: Sendable {
    var port = 0
    var databaseURL = ""

    static func load() throws -> Settings { Settings(port: 8080, databaseURL: "postgres://localhost/app") }
}

// doc begins
/// What was closed, in order: each `dispose()` notes its name where a real one would release
/// what it holds.
actor Closed {
    private(set) var order: [String] = []
    func note(_ name: String) { order.append(name) }
}
let closed = Closed()

final class DatabasePool: Disposable {
    static func open(_ url: String) async throws -> DatabasePool { DatabasePool() }
    func dispose() async throws { await closed.note("database pool") }  // close the connections
}

final class HTTPServer: Service, Disposable {
    let port: Int
    let pool: DatabasePool

    init(port: Int, pool: DatabasePool) {
        self.port = port
        self.pool = pool
    }

    /// Serves until a graceful shutdown: `run()` must not return before one is asked for.
    func run() async throws {
        // A real server accepts connections from here on.
        print("listening on \(port)")  // listening on 8080
        kill(getpid(), SIGTERM)  // the example asks itself to stop, as a deployment would
        try await gracefulShutdown()  // returns once SIGTERM or SIGINT asks the services to finish
        // Stop accepting; finish the requests in flight.
        print("stopped")  // stopped
    }

    func dispose() async throws { await closed.note("http server") }  // release the port
}
// doc ends
