import Foundation
import Testing
import WeftTestSupport

/// The real `weft` binary waiting on a server that never answers: the wait must cost next
/// to no CPU (FoundationNetworking's libcurl spun a core for the whole wait). The figure is
/// measured in Tests/Benchmarks (`WeftBenchmarks wait`); this test holds a generous bound.
@Suite("Waiting on a silent server", .timeLimit(.minutes(2)))
struct SilentServerWaitTests {
    /// The `weft` binary built beside this test bundle (`swift build --build-tests` builds both).
    static var weft: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("weft")
    }

    @Test("weft --plain trying 3 times 2 s on a server that never answers uses < 2 s of CPU, then exits 1")
    func silentServerCostsLittleCPU() async throws {
        let weft = Self.weft
        try #require(
            FileManager.default.isExecutableFile(atPath: weft.path), "build it first: swift build --build-tests")
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let listener = try SilentListener()
        let environments = try silentEnvironmentsFile(in: directory, port: listener.port, timeoutSeconds: 2)
        let usage = try await runChild(
            weft.path,
            [
                "--plain", "--environments", environments.path,
                "--database", directory.appendingPathComponent("history.sqlite").path,
            ])
        withExtendedLifetime(listener) {}
        #expect(usage.status == 1, "the fetch times out: initialization failed")
        #expect(usage.wall >= .seconds(6), "it waited the whole timeout, on each of the fact's three attempts")
        #expect(usage.cpu < .seconds(2), "user \(usage.user), system \(usage.system) for \(usage.wall) of waiting")
    }
}
