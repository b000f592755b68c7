import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

// What the server block leaves to the app: a service.

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
