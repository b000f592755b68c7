@testable import FactKit
import Foundation
import Testing
@testable import Weft
@testable import WeftApp

/// The composition root's declaration against its real factories: the graph `weft graph`
/// draws without running anything must be the graph the real factories resolve.
@Suite("App services and their declared graph")
struct AppServicesTests {
    private static let environments = try? EnvironmentCatalog.bundled()

    @Test("The declared graph matches what the real factories resolve", arguments: ["embedded", "production"])
    func declarationMatchesFactories(environmentName: String) async throws {
        let environment = try #require(try Self.environments?.environment(named: environmentName))
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let services = RunningServices()
        let container = AppServices.makeContainer(
            environment: environment,
            databaseURL: directory.appendingPathComponent("history.sqlite"),
            database: nil,
            services: services)

        let resolved = await container.graph()   // runs the real factories in a throwaway copy
        #expect(await services.holdsHTTPClient, "the real HTTP client factory ran and handed its client over")
        await services.stopAll()
        #expect(await !services.holdsHTTPClient)
        let declared = await AppServices.declaredGraph(for: environment)

        #expect(declared == resolved)
        #expect(declared.nodes.map(\.key) == container.registrations.map(\.key))
    }

    @Test("The declared graph of the embedded environment opens no database and starts no server")
    func declaredGraphRunsNothing() async throws {
        let environment = try #require(try Self.environments?.environment(named: "embedded"))
        let graph = await AppServices.declaredGraph(for: environment)
        #expect(graph.nodes.map(\.key.description) == [
            "Environment", "FactRepository", "FactServer", "FactService", "HTTPClient", "HistoryDatabase",
        ])
        #expect(graph.edges.map { "\($0.from) -> \($0.to)" } == [
            "FactRepository -> FactService", "FactRepository -> HistoryDatabase", "FactService -> FactServer",
            "FactService -> HTTPClient",
        ])
        // Every registration is a stand-in: nothing was created or cached.
        let declarations = AppServices.declarations(for: environment)
        #expect(declarations.allSatisfy { $0.lifetime == .singleton })
    }
}
