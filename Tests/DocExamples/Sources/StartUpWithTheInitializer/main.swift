// The Swift blocks of Sources/WeftInitializer/WeftInitializer.docc/StartUpWithTheInitializer.md:
// the server block here, the others in the files main calls. Types the article leaves out are
// in Assumed.swift and Server.swift.

// doc begins
import Logging
import ServiceLifecycle
import Weft
import WeftInitializer
import WeftServiceLifecycle

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

try await DependencyInitializer(createProcess: { ServerProcess() }, asyncSteps: steps)
    .runServices(logger: Logger(label: "server")) { result in
        [.init(service: try result.container.require(HTTPServer.self))]
    } container: {
        $0.container
    }
// doc ends

try await startUp()
try await FactService.$isDown.withValue(true) {
    try await startUp()
}
try await watchTimeAndRepeat()
