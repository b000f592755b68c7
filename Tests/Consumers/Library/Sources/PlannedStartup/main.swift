// Start-up planned from the container, written from the article "Start-up from the container"
// alone: the first screen's service and its dependency before ready, in order.
import Weft
import WeftInitializer
import WeftStartup

final class Store: Sendable {}
final class Inbox: Sendable {
    init(store: Store) {}
}

let container = Container()
container.register(Store.self, lifetime: .singleton) { (_: Resolver) async throws -> Store in Store() }
container.register(Inbox.self, lifetime: .singleton) { (resolver: Resolver) async throws -> Inbox in
    Inbox(store: try await resolver.resolve(Store.self))
}
container.startup = StartupDeclaration(firstScreen: [ServiceKey(Inbox.self)])
let report = await container.validate()
guard let plan = report.startupPlan, report.isValid else { fatalError("\(report.problems)") }
print(plan.beforeReady.map(\.description).joined(separator: "; "))  // Store; Inbox (after Store)

@MainActor final class Launch: DependencyInitializationProcess {
    var toContainer: Int { 0 }
}
let steps = InitializationStep<Launch>.planned(plan) { _ in container }
let result = try await DependencyInitializer(createProcess: { Launch() }, steps: steps).run()
print(result.report.steps.map(\.step.id).joined(separator: " → "))  // Store → Inbox
