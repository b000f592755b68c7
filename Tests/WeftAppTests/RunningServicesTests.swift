import Testing
@testable import FactKit
@testable import WeftApp

@Suite("RunningServices", .timeLimit(.minutes(1)))
struct RunningServicesTests {
    @Test("a server added after stopAll, by a step the run abandoned, is stopped at once")
    func lateServerIsStopped() async throws {
        let servers = RunningServices()
        let early = try FactServer.bundled()
        _ = try await early.start()
        await servers.add(early)
        await servers.stopAll()
        #expect(await !early.isRunning)

        let late = try FactServer.bundled()
        _ = try await late.start()
        await servers.add(late)
        #expect(await !late.isRunning)
    }
}
