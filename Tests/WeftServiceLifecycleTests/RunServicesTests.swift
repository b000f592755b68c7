import Logging
import ServiceLifecycle
import Testing
import Weft
import WeftInitializer
import WeftServiceLifecycle
import WeftTesting

/// Records what happened, in order, from any task.
actor Timeline {
    private(set) var entries: [String] = []
    func record(_ entry: String) { entries.append(entry) }
}

/// A service that runs until the group asks it to shut down gracefully.
struct LongRunning: Service {
    let timeline: Timeline
    func run() async throws {
        await timeline.record("server started")
        try? await gracefulShutdown()
        await timeline.record("server stopped")
    }
}

/// A service that finishes at once, which here shuts the group down gracefully.
struct OneShot: Service {
    let timeline: Timeline
    func run() async throws {
        await timeline.record("job done")
    }
}

final class Pool: Disposable {
    let timeline: Timeline
    init(timeline: Timeline) { self.timeline = timeline }
    func dispose() async throws { await timeline.record("pool disposed") }
}

/// A pool whose `dispose()` returns only when cancelled.
final class HangingPool: Disposable {
    let started: AsyncStream<Void>
    private let starting: AsyncStream<Void>.Continuation
    init() { (started, starting) = AsyncStream.makeStream(of: Void.self) }
    func dispose() async {
        starting.yield()
        let (never, _) = AsyncStream.makeStream(of: Void.self)
        for await _ in never {}  // ends when the task is cancelled
    }
}

@MainActor
final class ServerProcess: DependencyInitializationProcess {
    let container = Container()
    var toContainer: Container { container }
}

@MainActor
@Suite("Running an app's services", .timeLimit(.minutes(1)))
struct RunServicesTests {
    let logger = Logger(label: "weft.test") { _ in SwiftLogNoOpLogHandler() }

    @Test("Start-up, then the services, then disposal in reverse order once every service returned")
    func lifecycle() async throws {
        let timeline = Timeline()
        let initializer = try DependencyInitializer(
            createProcess: { ServerProcess() },
            preSyncSteps: [
                SyncInitializationStep(title: "Register") { process in
                    process.container.register(Pool.self, lifetime: .singleton) { Pool(timeline: timeline) }
                }
            ],
            asyncSteps: [
                AsyncInitializationStep(title: "Open the pool") { process in
                    _ = try await process.container.resolveAsync(Pool.self)
                    await timeline.record("pool opened")
                }
            ]
        )
        try await initializer.runServices(logger: logger) { _ in
            [
                .init(service: LongRunning(timeline: timeline)),
                .init(service: OneShot(timeline: timeline), successTerminationBehavior: .gracefullyShutdownGroup),
            ]
        } container: {
            $0.container
        }
        let entries = await timeline.entries
        #expect(entries.first == "pool opened")
        #expect(entries.last == "pool disposed")
        #expect(Set(entries) == ["pool opened", "server started", "job done", "server stopped", "pool disposed"])
        #expect(entries.firstIndex(of: "server stopped")! < entries.firstIndex(of: "pool disposed")!)
    }

    @Test("A failed start-up starts no service and throws the initialization failure")
    func failedStartUp() async throws {
        struct Broken: Error {}
        let timeline = Timeline()
        let initializer = try DependencyInitializer(
            createProcess: { ServerProcess() },
            asyncSteps: [AsyncInitializationStep(title: "Open the pool") { _ in throw Broken() }]
        )
        await #expect(throws: InitializationFailure<ServerProcess>.self) {
            try await initializer.runServices(logger: logger) { _ in
                [.init(service: LongRunning(timeline: timeline))]
            } container: {
                $0.container
            }
        }
        #expect(await timeline.entries.isEmpty)
    }

    @Test("The services may be resolved with await: a service whose factory is async runs")
    func asyncServices() async throws {
        let timeline = Timeline()
        let initializer = try DependencyInitializer(
            createProcess: { ServerProcess() },
            preSyncSteps: [
                SyncInitializationStep(title: "Register") { process in
                    process.container.register(OneShot.self, lifetime: .singleton) { _ async in
                        await timeline.record("made")
                        return OneShot(timeline: timeline)
                    }
                }
            ]
        )
        try await initializer.runServices(logger: logger) { result in
            [
                .init(
                    service: try await result.container.resolveAsync(OneShot.self),
                    successTerminationBehavior: .gracefullyShutdownGroup)
            ]
        } container: {
            $0.container
        }
        #expect(await timeline.entries == ["made", "job done"])
    }

    @Test("A dispose() that does not return is abandoned at the shutdown deadline, 10 s by default, and thrown")
    func shutdownDeadline() async throws {
        let clock = ManualClock()
        let pool = HangingPool()
        let initializer = try DependencyInitializer(
            createProcess: { ServerProcess() },
            preSyncSteps: [
                SyncInitializationStep(title: "Register") { process in
                    process.container.register(HangingPool.self, lifetime: .singleton) { pool }
                    _ = try process.container.require(HangingPool.self)
                }
            ]
        )
        let logger = logger
        let run = Task {
            try await initializer.runServices(shutdownClock: clock, logger: logger) { _ in
                [.init(service: OneShot(timeline: Timeline()), successTerminationBehavior: .gracefullyShutdownGroup)]
            } container: {
                $0.container
            }
        }
        for await _ in pool.started { break }
        try await clock.waitForSleepers(1)
        #expect(clock.deadlines == [ManualClock.Instant(offset: .seconds(10))])
        clock.advance(by: .seconds(10))
        let error = await #expect(throws: ShutdownError.self) { try await run.value }
        #expect(error?.abandoned.map(\.key) == [ServiceKey(HangingPool.self)])
        #expect(error?.abandoned.first?.share == .seconds(10))
    }
}
