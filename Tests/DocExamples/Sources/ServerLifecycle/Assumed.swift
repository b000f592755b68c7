import ServiceLifecycle
import Weft

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

// What the worked example leaves to the app, as simply as possible.

/// What was closed, in order.
actor Closed {
    private(set) var order: [String] = []
    func note(_ name: String) { order.append(name) }
}

let closed = Closed()

struct Settings: Sendable {
    var port = 0
    var databaseURL = ""

    static func load() throws -> Settings { Settings(port: 8080, databaseURL: "postgres://localhost/app") }
}

final class DatabasePool: Disposable {
    static func open(_ url: String) async throws -> DatabasePool { DatabasePool() }
    func dispose() async throws { await closed.note("database pool") }
}

/// Serves until a graceful shutdown. It sends the SIGTERM that asks for one itself, as a
/// deployment would, so that the example ends.
final class HTTPServer: Service, Disposable {
    let port: Int
    let pool: DatabasePool

    init(port: Int, pool: DatabasePool) {
        self.port = port
        self.pool = pool
    }

    func run() async throws {
        print("listening on \(port)")
        kill(getpid(), SIGTERM)
        try await gracefulShutdown()
        print("stopped")
    }

    func dispose() async throws { await closed.note("http server") }
}
