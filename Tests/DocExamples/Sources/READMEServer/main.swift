// doc begins
import Logging
import ServiceLifecycle
import Weft
import WeftInitializer
import WeftServiceLifecycle

@MainActor final class ServerProcess: DependencyInitializationProcess {
    let container = Container()
    var toContainer: Container { container }
    init() { registerServices(in: container) }  // Database (Disposable) and HTTPServer (a Service)
}

let steps = [
    AsyncInitializationStep<ServerProcess>(title: "Open the database") { process in
        _ = try await process.container.resolveAsync(Database.self)  // a Disposable singleton
    }
]
try await DependencyInitializer(createProcess: { ServerProcess() }, asyncSteps: steps)
    .runServices(logger: Logger(label: "server")) { result in
        // `services` may await: HTTPServer's factory may be async, as Database's is.
        [.init(service: try await result.container.resolveAsync(HTTPServer.self))]
    } container: {
        $0.container
    }
// doc ends

// The server stopped on its SIGTERM; the container disposed what it made, last made first.
let disposed = await disposals.order
print("disposed:", disposed)
precondition(disposed == ["server", "database"], "disposed \(disposed)")
