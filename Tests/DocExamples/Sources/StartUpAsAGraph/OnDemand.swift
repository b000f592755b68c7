import Weft
import WeftInitializer

/// The on-demand block: a step the run leaves until a container first resolves its value.
@MainActor
func buildOnDemand() async throws {
    // doc begins
    let search = OnDemand<SearchIndex>("search")
    let onDemandSteps =
        steps + [
            .onDemand(search, title: "Build the search index", after: ["history"], timeout: .seconds(2)) { process in
                try await SearchIndex.build(from: await process.history)
            }
        ]
    let started = try await DependencyInitializer(
        createProcess: { AppProcess(environment: .production) }, steps: onDemandSteps
    ).run()
    // The run's five steps, not the search index:
    print(started.report.steps.count)  // 5
    // The container builds it the first time something resolves it.
    let container = Container()
    container.register(SearchIndex.self) { _ in try await search.value() }
    let index = try await container.resolveAsync(SearchIndex.self)
    print(index.entries)  // 3
    print(started.onDemandSteps.map(\.step.id))  // ["search"]
    // doc ends
    precondition(started.report.steps.count == 5 && index.entries == 3, "built on demand")
}
