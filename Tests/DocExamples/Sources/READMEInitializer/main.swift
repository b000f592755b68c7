// The README's initializer block, which continues its library example: the process and the
// initializer below are that example's lines. It runs twice: as the README runs it, then with a
// "Fetch" step that fails.
import WeftInitializer

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

@MainActor func runTheExample(_ launch: DependencyInitializer<Launch>) async throws {
    // doc begins
    let events = launch.events()  // subscribe before running
    do {
        let result = try await launch.run()
        for await case .stepFinished(let timing) in events { print("✓", timing.step.title) }  // ✓ Settings, ✓ Fetch
        // Only the repeatable steps run again (say, in another environment); carry over the rest.
        let again = try await result.runRepeat(createProcess: { previous in
            let next = Launch()
            next.region = previous.region
            return next
        })
        print(again.container)  // hello (eu)
    } catch let failure as InitializationFailure<Launch> {
        print(failure)  // Step 'Fetch' (async phase) failed after … ms: …
    }
    // doc ends
}

struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
}

try await runTheExample(launch)
try await runTheExample(
    DependencyInitializer(
        createProcess: { Launch() },
        preSyncSteps: [SyncInitializationStep(title: "Settings") { $0.region = "eu" }],
        asyncSteps: [
            AsyncInitializationStep(title: "Fetch", type: .repeatable) { _ in
                throw Offline()
            } apply: { (process: Launch, motd: String) in
                process.motd = motd
            }
        ]
    )
)
