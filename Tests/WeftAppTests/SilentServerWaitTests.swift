import Foundation
import Testing
import WeftTestSupport

/// The real `weft` binary waiting on a server that never answers: the wait must cost next
/// to no CPU (FoundationNetworking's libcurl spun a core for the whole wait). The figure is
/// measured in Tests/Benchmarks (`WeftBenchmarks wait`); this test holds a generous bound, as a
/// share of the time waited, so a busy machine cannot fail it: a waiting process that sleeps
/// uses next to no CPU however busy the machine is, and one that spins takes its share of a core.
@Suite("Waiting on a silent server", .timeLimit(.minutes(2)))
struct SilentServerWaitTests {
    /// The `weft` binary built beside this test bundle (`swift build --build-tests` builds both).
    static var weft: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("weft")
    }

    @Test("weft --plain waiting out a 5 s attempt on a server that never answers uses under 10 % of a core")
    func silentServerCostsLittleCPU() async throws {
        let weft = Self.weft
        try #require(
            FileManager.default.isExecutableFile(atPath: weft.path), "build it first: swift build --build-tests")
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let listener = try SilentListener()
        // 5 s per attempt, on the wall clock: the app's own timeout, which the test does not
        // shorten; it measures the wait, and only a later answer than 5 s is possible.
        let environments = try silentEnvironmentsFile(in: directory, port: listener.port, timeoutSeconds: 5)
        // The window measured is the second attempt: from its connection to the third's. By then
        // every other step of the start-up (the history, the health check) is long done, so
        // whatever CPU the child uses meanwhile is the wait's. Then SIGTERM ends it.
        let wait = try await watchSilentWait(
            weft.path,
            [
                "--plain", "--environments", environments.path,
                "--database", directory.appendingPathComponent("history.sqlite").path,
            ], listener: listener, connections: 3)
        withExtendedLifetime(listener) {}
        try #require(wait.connections.count == 3, "the fact's three attempts each connect (exit \(wait.status))")
        #expect(wait.status == 143, "stopped by SIGTERM after its third connection")
        let second = wait.connections[1]
        let third = wait.connections[2]
        let waited = second.at.duration(to: third.at)
        let cpu = try #require(third.cpu) - (try #require(second.cpu))
        // The attempt's 5 s and the 320–400 ms before the next, less however late a busy machine
        // let this thread notice the second connection: it did wait, rather than fail at once.
        #expect(waited >= .seconds(5) - .milliseconds(500), "the second attempt waited its timeout: \(waited)")
        #expect(cpu * 10 <= waited, "\(cpu) of CPU for \(waited) of waiting")
    }
}
