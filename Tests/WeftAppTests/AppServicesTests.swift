import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Testing
import WeftTestSupport
import WeftTesting

@testable import FactKit
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
        let container = AppServices.makeContainer(
            environment: environment,
            databaseURL: directory.appendingPathComponent("history.sqlite"),
            database: nil)

        let resolved = await container.graph()  // runs the real factories in a throwaway copy
        let declared = AppServices.declaredGraph(embedded: environment.source == .embedded)

        #expect(declared == resolved)
        #expect(declared.nodes.map(\.key) == container.registrations.map(\.key))
        // The plan reads which factories are `async`; the graph's equality does not.
        #expect(declared.nodes.map(\.isAsync) == resolved.nodes.map(\.isAsync))
    }

    @Test("The declared graph of the embedded environment opens no database and starts no server")
    func declaredGraphRunsNothing() async throws {
        let graph = AppServices.declaredGraph(embedded: true)
        #expect(
            graph.nodes.map(\.key.description) == [
                "Environment", "FactServer", "FactService", "HistoryDatabase", "RunHTTPClient",
            ])
        #expect(
            graph.edges.map { "\($0.from) -> \($0.to)" } == [
                "FactService -> FactServer", "FactService -> RunHTTPClient",
            ])
        #expect(graph.nodes.allSatisfy { $0.lifetime == .singleton })
    }

    /// A run's container for the embedded environment, its history in `directory`.
    private static func embeddedContainer(historyIn directory: URL) throws -> Container {
        let environment = try #require(try environments?.environment(named: "embedded"))
        return AppServices.makeContainer(
            environment: environment, databaseURL: directory.appendingPathComponent("history.sqlite"), database: nil)
    }

    @Test("Shutting a run's container down stops its server and its HTTP client")
    func shutdownStopsServices() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let container = try Self.embeddedContainer(historyIn: directory)
        let server = try await container.resolveAsync(FactServer.self)
        let client = try container.require(RunHTTPClient.self).client
        #expect(await server.isRunning)
        #expect(await !client.isShutDown)

        await container.shutdownLogging()
        #expect(await !server.isRunning)
        #expect(await client.isShutDown)
    }

    @Test("A server a run's abandoned step starts after the run was shut down is stopped at once")
    func lateServerIsStopped() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let container = try Self.embeddedContainer(historyIn: directory)
        // The step starts the server, the run ends meanwhile: the container shuts down while
        // the factory is still running (a creation in flight is what `shutdown()` cannot wait for).
        let started = try FactServer.bundled()
        let (proceed, go) = AsyncStream.makeStream(of: Void.self)
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        container.register(FactServer.self, lifetime: .singleton) { (_: Resolver) async throws -> FactServer in
            enter.yield()
            for await _ in proceed { break }
            try await started.start()
            return started
        }
        let step = Task { try await container.resolveAsync(FactServer.self) }
        for await _ in entered { break }
        await container.shutdownLogging()
        go.yield()
        await #expect(throws: ResolutionError.self) { try await step.value }
        #expect(await !started.isRunning, "stopped before the step's resolve returned")
    }

    /// A service whose `dispose()` returns only when cancelled.
    final class Stuck: Disposable {
        let started: AsyncStream<Void>
        private let starting: AsyncStream<Void>.Continuation
        init() { (started, starting) = AsyncStream.makeStream(of: Void.self) }
        func dispose() async {
            starting.yield()
            let (never, _) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}  // ends when the task is cancelled
        }
    }

    @Test("A service that never stops cannot hold the run's shutdown past its deadline; it is logged")
    func stuckServiceIsAbandoned() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let container = try Self.embeddedContainer(historyIn: directory)
        let log = CapturedLog()
        container.diagnostics.logger = log.logger(level: .warning)
        let stuck = Stuck()
        container.register(Stuck.self, lifetime: .singleton) { stuck }
        _ = try container.require(Stuck.self)
        let client = try container.require(RunHTTPClient.self).client  // made after: disposed first
        let clock = ManualClock()
        let shutdown = Task { await container.shutdownLogging(clock: clock) }
        for await _ in stuck.started { break }
        try await clock.waitForSleepers(1)
        #expect(Container.runShutdownDeadline == .seconds(5))
        clock.advance(to: ManualClock.Instant(offset: Container.runShutdownDeadline))
        await shutdown.value
        #expect(await client.isShutDown)
        let warning = try #require(log.all.first { $0.message == "A service did not stop in time and was abandoned" })
        #expect(warning.metadata["weft.key"]?.hasSuffix("Stuck") == true)
        #expect(warning.metadata["error"]?.contains("or give shutdown a longer deadline") == true)
    }
}

extension HTTPClient {
    /// Whether the client was shut down: a shut-down client refuses every request at once
    /// (nothing is sent; the address is never contacted).
    var isShutDown: Bool {
        get async {
            do {
                _ = try await execute(HTTPClientRequest(url: "http://127.0.0.1:9/"), timeout: .seconds(5))
                return false
            } catch let error as HTTPClientError {
                return error == .alreadyShutdown
            } catch {
                return false
            }
        }
    }
}
