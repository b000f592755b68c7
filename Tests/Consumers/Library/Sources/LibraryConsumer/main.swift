import Weft
import WeftInitializer

struct Settings: Sendable { let region: String }
struct Greeter: Sendable { let settings: Settings }

let container = Container()
container.register(Settings.self, lifetime: .singleton) { Settings(region: "eu") }  // lazy
container.register(Greeter.self) { r in Greeter(settings: try r.resolve(Settings.self)) }
print(try container.require(Greeter.self).settings.region)  // eu

@MainActor final class Launch: DependencyInitializationProcess {
    var region = "", motd = ""
    var toContainer: String { "\(motd) (\(region))" }
}
let launch = try DependencyInitializer(
    createProcess: { Launch() },
    preSyncSteps: [SyncInitializationStep(title: "Settings") { $0.region = "eu" }],
    asyncSteps: [
        AsyncInitializationStep(title: "Fetch", type: .repeatable) { _ in
            "hello"
        } apply: {
            $0.motd = $1
        }
    ]
)
print(try await launch.run().container)  // hello (eu)
