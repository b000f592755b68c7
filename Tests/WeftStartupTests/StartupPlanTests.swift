import Testing
import Weft
import WeftInitializer
import WeftStartup

// A small app: the first screen shows a feed, which needs the database and the HTTP client
// (through a synchronous settings service); search is warmed after ready; analytics waits for
// its first resolve.
final class Settings: Sendable {}
final class Database: Sendable {}
final class HTTPClient: Sendable {}
final class Feed: Sendable {}
final class SearchIndex: Sendable {}
final class Analytics: Sendable {}
struct HistoryUnavailable: Error {}

func appContainer() -> Container {
    let container = Container()
    container.register(Settings.self, lifetime: .singleton) { Settings() }
    container.register(Database.self, lifetime: .singleton) { (resolver: Resolver) async throws -> Database in
        _ = try await resolver.resolve(Settings.self)
        return Database()
    }
    container.register(HTTPClient.self, lifetime: .singleton) { (resolver: Resolver) async throws -> HTTPClient in
        _ = try await resolver.resolve(Settings.self)
        return HTTPClient()
    }
    container.register(Feed.self, lifetime: .singleton) { (resolver: Resolver) async throws -> Feed in
        _ = try await resolver.resolve(Database.self)
        _ = try await resolver.resolve(HTTPClient.self)
        return Feed()
    }
    container.register(SearchIndex.self, lifetime: .singleton) { (resolver: Resolver) async throws -> SearchIndex in
        _ = try await resolver.resolve(Database.self)
        return SearchIndex()
    }
    container.register(Analytics.self, lifetime: .singleton) { (resolver: Resolver) async throws -> Analytics in
        _ = try await resolver.resolve(HTTPClient.self)
        return Analytics()
    }
    return container
}

@Suite struct StartupPlanTests {
    @Test func plansTheFirstScreenBeforeReadyAndTheRestAfterOrOnDemand() async throws {
        let container = appContainer()
        container.startup = StartupDeclaration(
            firstScreen: [ServiceKey(Feed.self)], afterReady: [ServiceKey(SearchIndex.self)])
        let report = await container.validate()
        #expect(report.isValid, "\(report.problems)")
        let plan = try #require(report.startupPlan)
        #expect(
            plan.beforeReady.map(\.key) == [
                ServiceKey(Database.self), ServiceKey(HTTPClient.self), ServiceKey(Feed.self),
            ])
        #expect(plan.beforeReady.last?.after == [ServiceKey(Database.self), ServiceKey(HTTPClient.self)])
        // Settings is synchronous and named nowhere: whichever step resolves it first makes it.
        #expect(plan.beforeReady.first?.after == [])
        #expect(plan.afterReady.map(\.key) == [ServiceKey(SearchIndex.self)])
        #expect(plan.afterReady.first?.after == [ServiceKey(Database.self)])
        // Settings is made before ready too, by the first step that resolves it.
        #expect(plan.onDemand == [ServiceKey(Analytics.self)])
        #expect(plan.hazards.isEmpty)
        #expect(
            plan.description == """
                before ready: Database, HTTPClient, Feed (after Database, HTTPClient)
                after ready: SearchIndex (after Database)
                on demand: Analytics
                """)
    }

    @Test func aContainerWithoutADeclarationPlansNothing() async {
        let report = await appContainer().validate()
        #expect(report.startupPlan == nil)
    }

    @Test func theCriticalChainIsTheLongestPathToReady() async throws {
        let container = appContainer()
        container.startup = StartupDeclaration(firstScreen: [ServiceKey(Feed.self)])
        let plan = try #require(await container.validate().startupPlan)
        let times: [ServiceKey: Duration] = [
            ServiceKey(Database.self): .milliseconds(300), ServiceKey(HTTPClient.self): .milliseconds(100),
            ServiceKey(Feed.self): .milliseconds(50),
        ]
        let chain = plan.criticalChain { times[$0.key] ?? .zero }
        #expect(chain.services.map(\.key) == [ServiceKey(Database.self), ServiceKey(Feed.self)])
        #expect(chain.length == .milliseconds(350))
    }

    @Test func aFirstScreenServiceThatNeedsOneMarkedLaterIsAHazard() async throws {
        let container = appContainer()
        container.startup = StartupDeclaration(
            firstScreen: [ServiceKey(Feed.self)], afterReady: [ServiceKey(Database.self)])
        let report = await container.validate()
        let problem = try #require(report.problems.first { $0.code == .neededBeforeReady })
        #expect(problem.service == ServiceKey(Feed.self))
        #expect(problem.dependency == ServiceKey(Database.self))
        #expect(problem.path == [ServiceKey(Feed.self)])
        #expect(problem.site?.fileID == "WeftStartupTests/StartupPlanTests.swift")
        #expect(problem.description.contains("which the start-up declaration makes after ready"))
        // Made before ready anyway: the first screen needs it.
        #expect(report.startupPlan?.beforeReady.contains { $0.key == ServiceKey(Database.self) } == true)
    }

    @Test func aModuleMarkIsOverruledByTheFirstScreenAndAKeyMark() async throws {
        struct Search: Module {
            let name = "Search"
            func configure(_ container: Container) async throws {
                container.register(SearchIndex.self, lifetime: .singleton) { SearchIndex() }
                container.register(Analytics.self, lifetime: .singleton) { Analytics() }
            }
        }
        let container = Container()
        try await container.install([Search()])
        container.startup = StartupDeclaration(
            firstScreen: [], onDemand: [ServiceKey(Analytics.self)], modules: ["Search": .afterReady])
        let plan = try #require(await container.validate().startupPlan)
        #expect(plan.afterReady.map(\.key) == [ServiceKey(SearchIndex.self)])
        #expect(plan.afterReady.first?.module == "Search")
        #expect(plan.onDemand == [ServiceKey(Analytics.self)])
    }

    @Test func aDeclaredKeyNothingRegistersIsAHazard() async {
        let container = appContainer()
        container.startup = StartupDeclaration(firstScreen: [ServiceKey(Feed.self), ServiceKey(Int.self)])
        let report = await container.validate()
        #expect(report.problems == [.startupServiceNotRegistered(ServiceKey(Int.self), timing: .beforeReady)])
        #expect(
            report.problems.first?.description
                == "The start-up declaration makes Int before ready, but nothing registers it. Register it, or take "
                + "it out of `container.startup`.")
    }

    @Test func aCycleOnThePathIsAHazardAndNoneOfItIsPlanned() async throws {
        let container = Container()
        container.register(Int.self, name: "A") { (resolver: Resolver) async throws -> Int in
            try await resolver.resolve(Int.self, name: "B")
        }
        container.register(Int.self, name: "B") { (resolver: Resolver) async throws -> Int in
            try await resolver.resolve(Int.self, name: "C")
        }
        container.register(Int.self, name: "C") { (resolver: Resolver) async throws -> Int in
            try await resolver.resolve(Int.self, name: "B")
        }
        container.startup = StartupDeclaration(firstScreen: [key("A")])
        let report = await container.validate()
        let plan = try #require(report.startupPlan)
        let cycle = [key("B"), key("C"), key("B")]
        #expect(plan.hazards == [.circularDependency(cycle)])
        #expect(report.problems.filter { $0.code == .circularDependency } == [.circularDependency(cycle)])
        #expect(plan.services.isEmpty)
    }

    @Test func aSynchronousFactoryThatNeedsAnAsyncOneIsValidatesProblemNotThePlans() async throws {
        let container = Container()
        container.register(Int.self, name: "A") { (resolver: Resolver) throws -> Int in
            try resolver.resolve(Int.self, name: "B")
        }
        container.register(Int.self, name: "B") { (_: Resolver) async throws -> Int in 1 }
        container.startup = StartupDeclaration(firstScreen: [key("A")])
        let report = await container.validate()
        let plan = try #require(report.startupPlan)
        // A planned run makes B first, and A's synchronous resolve finds it made; a resolve
        // outside the plan would not, which validate() reports, with its path.
        #expect(plan.hazards.isEmpty)
        #expect(plan.beforeReady.map(\.key) == [key("B"), key("A")])
        #expect(report.problems == [.requiresAsync(service: key("A"), dependency: key("B"))])
    }

    @Test func aGraphDrawnOnceIsPlannedWithoutRunningAFactory() async throws {
        let graph = await appContainer().graph()
        let plan = graph.startupPlan(StartupDeclaration(firstScreen: [ServiceKey(Feed.self)], otherwise: .afterReady))
        #expect(
            plan.beforeReady.map(\.key) == [
                ServiceKey(Database.self), ServiceKey(HTTPClient.self), ServiceKey(Feed.self),
            ])
        // Everything else after ready; Settings, marked by `otherwise` too, is made before ready
        // by the first step that resolves it.
        #expect(plan.afterReady.map(\.key) == [ServiceKey(Analytics.self), ServiceKey(SearchIndex.self)])
        #expect(plan.onDemand.isEmpty)
    }

    @MainActor @Test func plannedStepsTakeTheirOptionsAndWaitForTheStepsGiven() async throws {
        let container = Container()
        container.register(Database.self, lifetime: .singleton) { (_: Resolver) async throws -> Database in
            throw HistoryUnavailable()
        }
        container.register(Feed.self, lifetime: .singleton) { (resolver: Resolver) async throws -> Feed in
            _ = try? await resolver.resolve(Database.self)
            return Feed()
        }
        container.register(SearchIndex.self, lifetime: .singleton) { (resolver: Resolver) async throws -> SearchIndex in
            _ = try await resolver.resolve(Database.self)
            return SearchIndex()
        }
        container.startup = StartupDeclaration(
            firstScreen: [ServiceKey(Feed.self), ServiceKey(SearchIndex.self)])
        let plan = try #require(await container.validate().startupPlan)
        var steps: [InitializationStep<PlannedProcess>] = [.sync("services") { _ in }]
        steps += InitializationStep.planned(
            plan, after: ["services"],
            options: [
                ServiceKey(Database.self): PlannedStepOptions(id: "history", title: "Open the history", optional: true)
            ]
        ) { _ in container }
        let initializer = try DependencyInitializer(createProcess: { PlannedProcess() }, steps: steps)
        #expect(initializer.plan.map(\.id) == ["services", "history", "Feed", "SearchIndex"])
        #expect(initializer.plan.map(\.title) == ["services", "Open the history", "Make Feed", "Make SearchIndex"])
        #expect(
            initializer.plan.map(\.after) == [[], ["services"], ["services", "history"], ["services", "history"]])
        let report = try await initializer.run().report
        // The database is optional: its failure degrades the run, and skips what waits for it.
        #expect(report.isDegraded)
        #expect(report.failedOptionalSteps.map(\.id) == ["history"])
        #expect(report.skippedSteps.map(\.id) == ["Feed", "SearchIndex"])
    }

    @Test func aBudgetChecksThePlansCriticalChainBeforeItRuns() async throws {
        let container = appContainer()
        container.startup = StartupDeclaration(firstScreen: [ServiceKey(Feed.self)])
        let plan = try #require(await container.validate().startupPlan)
        var budget = StartupBudget(
            ready: .init(median: .milliseconds(300)),
            steps: [
                "Database": .init(median: .milliseconds(250)), "HTTPClient": .init(median: .milliseconds(100)),
                "Feed": .init(median: .milliseconds(100)),
            ])
        let breach = try #require(budget.check(plan))
        #expect(breach.measure == "ready (chain: Database → Feed)")
        #expect(breach.kind == .over(.median, value: .milliseconds(350), limit: .milliseconds(300)))
        budget.ready = .init(median: .milliseconds(350))
        #expect(budget.check(plan) == nil)
        // Ids other than the keys' descriptions.
        budget.steps = ["db": .init(median: .milliseconds(400))]
        #expect(
            budget.check(plan) { $0.key == ServiceKey(Database.self) ? "db" : $0.id }?.measure
                == "ready (chain: db → Feed)")
    }

    private func key(_ name: String) -> ServiceKey { ServiceKey(Int.self, name: name) }
}
