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
        #expect(plan.beforeReady.map(\.key) == [ServiceKey(Database.self), ServiceKey(HTTPClient.self), ServiceKey(Feed.self)])
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

    @Test func aSynchronousFactoryThatNeedsAnAsyncOneIsAHazard() async throws {
        let container = Container()
        container.register(Int.self, name: "A") { (resolver: Resolver) throws -> Int in
            try resolver.resolve(Int.self, name: "B")
        }
        container.register(Int.self, name: "B") { (_: Resolver) async throws -> Int in 1 }
        container.startup = StartupDeclaration(firstScreen: [key("A")])
        let report = await container.validate()
        let plan = try #require(report.startupPlan)
        #expect(plan.hazards == [.requiresAsync(service: key("A"), dependency: key("B"))])
        #expect(report.problems == [.requiresAsync(service: key("A"), dependency: key("B"))])
    }

    @Test func aGraphDrawnOnceIsPlannedWithoutRunningAFactory() async throws {
        let graph = await appContainer().graph()
        let plan = graph.startupPlan(StartupDeclaration(firstScreen: [ServiceKey(Feed.self)], otherwise: .afterReady))
        #expect(plan.beforeReady.map(\.key) == [ServiceKey(Database.self), ServiceKey(HTTPClient.self), ServiceKey(Feed.self)])
        // Everything else after ready; Settings, marked by `otherwise` too, is made before ready
        // by the first step that resolves it.
        #expect(plan.afterReady.map(\.key) == [ServiceKey(Analytics.self), ServiceKey(SearchIndex.self)])
        #expect(plan.onDemand.isEmpty)
    }

    private func key(_ name: String) -> ServiceKey { ServiceKey(Int.self, name: name) }
}
