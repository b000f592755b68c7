import Testing
import Weft
import WeftInitializer

/// What the on-demand step makes: a search index, counted each time it is built.
private final class SearchIndex: Sendable {
    let entries: Int
    init(entries: Int) { self.entries = entries }
}

private actor Builds {
    private(set) var count = 0
    func add() { count += 1 }
}

@MainActor
private final class SearchProcess: DependencyInitializationProcess {
    var history: [String] = []
    var toContainer: Void { () }
}

/// A Weft container resolves the value of an on-demand start-up step: the step runs at the
/// first resolve, and a failure is the resolve's error, naming the step and the registration.
@MainActor
@Suite("On-demand steps behind a container", .timeLimit(.minutes(1)))
struct OnDemandContainerTests {
    private func start(
        _ search: OnDemand<SearchIndex>, builds: Builds, failing: Bool = false
    ) async throws -> InitializationResult<SearchProcess> {
        try await DependencyInitializer(
            createProcess: { SearchProcess() },
            steps: [
                .sync("history", title: "Read the history") { process in process.history = ["a", "b", "c"] },
                .onDemand(search, title: "Build the search index", after: ["history"]) { process in
                    await builds.add()
                    if failing { throw IndexCorrupt() }
                    return SearchIndex(entries: await process.history.count)
                },
            ]
        ).run()
    }

    @Test("Concurrent first resolves share one run of the step, after the run; the container keeps the value")
    func resolvesOnDemand() async throws {
        let search = OnDemand<SearchIndex>("search")
        let builds = Builds()
        let result = try await start(search, builds: builds)
        let container = Container()
        container.register(SearchIndex.self, lifetime: .transient) { _ in try await search.value() }
        #expect(await builds.count == 0)

        let resolves = (0..<8).map { _ in Task { try await container.resolveAsync(SearchIndex.self) } }
        var indexes: [SearchIndex] = []
        for resolve in resolves { indexes.append(try await resolve.value) }
        #expect(indexes.allSatisfy { $0 === indexes[0] && $0.entries == 3 })
        #expect(await builds.count == 1)
        #expect(result.onDemandSteps.map(\.step.id) == ["search"])
    }

    @Test("A failed step is the resolve's typed error: the service, where it was registered, and the step")
    func failureNamesTheStep() async throws {
        let search = OnDemand<SearchIndex>("search")
        _ = try await start(search, builds: Builds(), failing: true)
        let container = Container()
        container.register(SearchIndex.self) { _ in try await search.value() }

        let error = try await #require(throws: ResolutionError.self) {
            try await container.resolveAsync(SearchIndex.self)
        }
        #expect(error.code == .factoryFailed)
        let step = try #require(error.underlyingError as? OnDemandStepError)
        #expect(step.code == .failed && step.step.id == "search")
        #expect("\(error)".contains("OnDemandContainerTests.swift:"))
        #expect(
            "\(error)".contains(
                "On-demand step 'search' (Build the search index) failed: the search index is corrupt."))
    }
}

private struct IndexCorrupt: Error, CustomStringConvertible {
    var description: String { "the search index is corrupt" }
}
