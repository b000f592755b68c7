import Testing
import WeftInitializer

// The README's initializer example: the lines between "doc begins" and "doc ends" are
// the README's block, line for line (scripts/doc-examples compares them); `print` is
// captured so the test can check what the example prints.

@MainActor private final class Launch: DependencyInitializationProcess {
    var region = "", motd = ""
    var toContainer: String { "\(motd) (\(region))" }
}

private struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
}

/// The library example's initializer (its "Fetch" step repeatable), failing when `fails`.
@MainActor private func launch(fails: Bool = false) throws -> DependencyInitializer<Launch> {
    try DependencyInitializer(
        createProcess: { Launch() },
        preSyncSteps: [SyncInitializationStep(title: "Settings") { $0.region = "eu" }],
        asyncSteps: [
            AsyncInitializationStep(title: "Fetch", type: .repeatable) { _ in
                if fails { throw Offline() }
                return "hello"
            } apply: {
                $0.motd = $1
            }
        ]
    )
}

/// Runs the README's block against `launch` and returns what it printed.
@MainActor private func readmeExample(_ launch: DependencyInitializer<Launch>) async throws -> [String] {
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
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
        print(failure)  // Step 'Fetch' (async phase) failed after 12 ms: …
    }
    // doc ends
    return printed
}

@Suite("The README's initializer example")
@MainActor
struct ReadmeInitializerExampleTests {
    @Test("prints each finished step, then the repeated run's container")
    func succeeds() async throws {
        #expect(try await readmeExample(launch()) == ["✓ Settings", "✓ Fetch", "hello (eu)"])
    }

    @Test("prints the failure, naming the step and its phase")
    func fails() async throws {
        let printed = try await readmeExample(launch(fails: true))
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Step 'Fetch' (async phase) failed after ") == true)
        #expect(printed.first?.hasSuffix(" ms: offline") == true)
    }
}
