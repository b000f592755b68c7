import ServiceLifecycle
import Weft
import WeftInitializer

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

// What the server block leaves to the app: a process that holds a Weft container, the steps
// that fill it, and a service.

/// A server that serves until a graceful shutdown; it sends the SIGTERM that asks for one
/// itself, as a deployment would, so that the example ends.
struct HTTPServer: Service {
    func run() async throws {
        print("HTTPServer: serving")
        kill(getpid(), SIGTERM)
        try await gracefulShutdown()
        print("HTTPServer: stopped")
    }
}

@MainActor
final class ServerProcess: DependencyInitializationProcess {
    let container = Container()

    var toContainer: Container { container }
}

let steps: [AsyncInitializationStep<ServerProcess>] = [
    AsyncInitializationStep(title: "Register the server") { process in
        process.container.register(HTTPServer.self, lifetime: .singleton) { HTTPServer() }
    }
]
