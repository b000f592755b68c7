// The Swift blocks of Sources/WeftStartup/WeftStartup.docc/StartUpFromTheContainer.md, in order.
// doc begins
import Weft
import WeftInitializer
import WeftStartup

final class Database: Sendable {
    static func open() async throws -> Database { Database() }
}
final class HTTPClient: Sendable {}
final class Feed: Sendable {
    init(database: Database, client: HTTPClient) {}
}
final class SearchIndex: Sendable {
    init(database: Database) {}
}
final class Analytics: Sendable {}

let container = Container()
container.register(Database.self, lifetime: .singleton) { (_: Resolver) async throws -> Database in
    try await Database.open()
}
container.register(HTTPClient.self, lifetime: .singleton) { HTTPClient() }
container.register(Feed.self, lifetime: .singleton) { (resolver: Resolver) async throws -> Feed in
    Feed(database: try await resolver.resolve(Database.self), client: try await resolver.resolve(HTTPClient.self))
}
container.register(SearchIndex.self, lifetime: .singleton) { (resolver: Resolver) async throws -> SearchIndex in
    SearchIndex(database: try await resolver.resolve(Database.self))
}
container.register(Analytics.self, lifetime: .singleton) { Analytics() }
// doc ends

// doc begins
container.startup = StartupDeclaration(
    firstScreen: [ServiceKey(Feed.self)],
    afterReady: [ServiceKey(SearchIndex.self)])

let report = await container.validate()
guard report.isValid, let plan = report.startupPlan else { fatalError("\(report.problems)") }
print(plan.beforeReady.map(\.description))  // ["Database", "Feed (after Database)"]
print(plan.afterReady.map(\.description))  // ["SearchIndex (after Database)"]
print(plan.onDemand.map(\.description))  // ["Analytics"]
// doc ends

// doc begins
@MainActor
final class App: DependencyInitializationProcess {
    var toContainer: Container { container }
}

let steps: [InitializationStep<App>] =
    [.sync("settings", title: "Load settings") { _ in }]
    + InitializationStep.planned(plan, after: ["settings"]) { _ in container }
let result = try await DependencyInitializer(createProcess: { App() }, steps: steps).run()
let whole = await result.waitForLaterSteps()
print(whole.steps.map(\.step.id))  // ["settings", "Database", "Feed", "SearchIndex"]
print(whole.stepsAfterReady.map(\.step.id))  // ["SearchIndex"]
// doc ends

// doc begins
let tuned = InitializationStep<App>.planned(
    plan, after: ["settings"],
    options: [
        ServiceKey(Database.self): PlannedStepOptions(
            id: "database", title: "Open the database", optional: true, timeout: .seconds(10),
            retry: .exponential(attempts: 3))
    ]
) { _ in container }
let tunedPlan = try DependencyInitializer(createProcess: { App() }, steps: [.sync("settings") { _ in }] + tuned).plan
print(tunedPlan.map(\.id))  // ["settings", "database", "Feed", "SearchIndex"]
print(tunedPlan.map(\.title))  // ["settings", "Open the database", "Make Feed", "Make SearchIndex"]
// doc ends

// doc begins
let budget = StartupBudget(
    ready: .init(median: .milliseconds(300)),
    steps: ["Database": .init(median: .milliseconds(250)), "Feed": .init(median: .milliseconds(100))])
print(budget.check(plan)?.measure ?? "within budget")  // ready (chain: Database → Feed)
// doc ends

// doc begins
let declared = DependencyGraph(declaring: [
    .init(Database.self),
    .init(HTTPClient.self, isAsync: false),
    .init(Feed.self, resolves: [ServiceKey(Database.self), ServiceKey(HTTPClient.self)]),
    .init(SearchIndex.self, resolves: [ServiceKey(Database.self)]),
    .init(Analytics.self, isAsync: false),
])
let launchPlan = declared.startupPlan(
    StartupDeclaration(firstScreen: [ServiceKey(Feed.self)], afterReady: [ServiceKey(SearchIndex.self)]))
print(launchPlan == plan)  // true
print(declared == (await container.graph()))  // true
// doc ends

// doc begins
container.startup = StartupDeclaration(
    firstScreen: [ServiceKey(Feed.self)],
    afterReady: [ServiceKey(Database.self)])
let hazards = await container.validate().problems
print(hazards.map(\.code.description))  // ["neededBeforeReady"]
// doc ends

// doc begins
let handWritten: [InitializationStep<App>] = [
    .sync("settings", title: "Load settings") { _ in },
    .async("database", after: ["settings"]) { _ in _ = try await container.resolveAsync(Database.self) },
    .async("feed", after: ["settings", "database"]) { _ in _ = try await container.resolveAsync(Feed.self) },
]
// doc ends

// doc begins
let migrated: [InitializationStep<App>] =
    [.sync("settings", title: "Load settings") { _ in }]
    + InitializationStep.planned(
        plan, after: ["settings"],
        options: [
            ServiceKey(Database.self): PlannedStepOptions(id: "database"),
            ServiceKey(Feed.self): PlannedStepOptions(id: "feed"),
        ]
    ) { _ in container }
let before = try DependencyInitializer(createProcess: { App() }, steps: handWritten).plan
let after = try DependencyInitializer(createProcess: { App() }, steps: migrated).plan
print(after.prefix(3).map(\.after) == before.map(\.after))  // true
// doc ends
