// The Swift blocks of Sources/WeftInitializer/WeftInitializer.docc/StartUpAsAGraph.md: the
// first here, the others in the files main calls. Types the article leaves out are in
// Assumed.swift. The last block is a Swift Testing test (Clock.swift): main runs it as
// `swift test` would.
import Testing
// doc begins
import WeftInitializer

@MainActor
final class AppProcess: DependencyInitializationProcess {
    let environment: Environment
    var settings: EnvironmentSettings?
    var client: FactClient?
    var firstFact: CatFact?
    var history: HistoryStore?
    var unreadCount = 0

    init(environment: Environment) { self.environment = environment }

    var toContainer: AppDependencies {
        get throws {
            guard let client else { throw MissingPiece(name: "client") }
            guard let firstFact else { throw MissingPiece(name: "first cat fact") }
            // The history is optional: the app starts without it.
            return AppDependencies(client: client, firstFact: firstFact, history: history)
        }
    }
}

let steps: [InitializationStep<AppProcess>] = [
    .sync("environment", title: "Load the environment", type: .repeatable) { process in
        process.settings = try EnvironmentSettings.load(process.environment)
    },
    .async("client", title: "Create the client", type: .repeatable, after: ["environment"]) { process in
        guard let settings = await process.settings else { throw MissingPiece(name: "settings") }
        return FactClient(baseURL: settings.baseURL)
    } apply: { process, client in
        process.client = client
    },
    .async(
        "fact", title: "Fetch the first cat fact", type: .repeatable, after: ["client"],
        timeout: .seconds(5), retry: .exponential(attempts: 3, baseDelay: .milliseconds(200))
    ) { process in
        guard let client = await process.client else { throw MissingPiece(name: "client") }
        return try await client.catFact()
    } apply: { process, fact in
        process.firstFact = fact
    },
    .async("history", title: "Open the history", optional: true) { _ in
        try await HistoryStore.open()
    } apply: { process, history in
        process.history = history
    },
    .sync("unread", title: "Count unread facts", after: ["history"]) { process in
        process.unreadCount = process.history?.unreadCount ?? 0
    },
]

let initializer = try DependencyInitializer(
    createProcess: { AppProcess(environment: .production) },
    steps: steps
)
let result = try await initializer.run()
// doc ends
precondition(!result.isDegraded && result.process.unreadCount == 3, "every step ran")

// The article's order: optional steps, repeating, the report, the trace, ready, budgets, on demand,
// watching.
try await HistoryStore.$isLocked.withValue(true) {
    try await startWithoutTheHistory()
}
try await switchToStaging()
printTheReport()
try writeTheTrace()
try await startReadyFirst()
try await buildOnDemand()
await FactClient.failures.add(1)
try await HistoryStore.$isLocked.withValue(true) {
    try await watch()
}

// The test's fact client fails its first request.
await FactClient.failures.add(1)
let status: CInt = await Testing.__swiftPMEntryPoint(passing: nil)
precondition(status == 0, "the article's test failed")
