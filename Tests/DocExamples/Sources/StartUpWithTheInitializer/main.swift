// The Swift blocks of Sources/WeftInitializer/WeftInitializer.docc/StartUpWithTheInitializer.md:
// the server block here, the others in the files main calls. Types the article leaves out are
// in Assumed.swift and Server.swift.

// doc begins
import Logging
import ServiceLifecycle
import Weft
import WeftInitializer
import WeftServiceLifecycle

// ServerProcess holds a Weft Container that `steps` fill; HTTPServer is a swift-service-lifecycle Service.
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
try await watchTimeAndRepeat(splash: Splash())
