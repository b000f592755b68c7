import Testing
import WeftInitializer

/// Every public value of a run that a message or a log line may interpolate reads as the user
/// wrote the step: never as a type's fields (`InitializationStepInfo(storage: …)`).
@MainActor
@Suite("Readable descriptions of a run's values", .timeLimit(.minutes(1)))
struct DescriptionTests {
    @Test("events, step infos, timings and the phase read as text, with the step's title and id")
    func events() async throws {
        // A clock nobody moves: every offset and duration is exactly zero, however busy the machine.
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("fact", title: "Fetch the fact") { _ in },
                .sync("show", title: "Show it", after: ["fact"]) { _ in },
            ],
            clock: InitializationClock(ManualClock()))
        let events = initializer.events()
        let result = try await initializer.run()
        var lines: [String] = []
        for await event in events {
            lines.append("\(event)")
            if case .finished = event { break }
        }
        #expect(lines.first == "started: 2 steps")
        #expect(lines.contains("step 'Fetch the fact' (fact, graph) started"))
        #expect(lines.contains("step 'Show it' (show, graph) finished at 0.0 s, after 0.0 s"))
        #expect(lines.last == "finished after 0.0 s")
        #expect(!lines.contains { $0.contains("Initialization") }, "\(lines)")
        let timing = try #require(result.report.steps.first)
        #expect("\(timing)" == "'Fetch the fact' (fact, graph) finished at 0.0 s, after 0.0 s")
        #expect("\(InitializationStepType.repeatable)" == "repeatable")
        #expect(
            "\(result.report)" == """
                2 steps, ready at 0.0 s
                  'Fetch the fact' (fact, graph) finished at 0.0 s, after 0.0 s
                  'Show it' (show, graph) finished at 0.0 s, after 0.0 s
                """)
        #expect("\(result)" == "\(result.report)")
    }

    @Test("a report reads its ready, its total and a degraded run, with no Optional(")
    func report() async throws {
        let later = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("fact", title: "Fetch the fact") { _ in },
                .async("warm", title: "Warm the cache", optional: true, schedule: .afterReady) { _ in
                    throw Failure()
                },
            ],
            clock: InitializationClock(ManualClock()))
        let whole = try await later.run().waitForLaterSteps()
        #expect(whole.description.hasPrefix("2 steps, ready at 0.0 s, done at 0.0 s, degraded\n"))
        #expect(!whole.description.contains("Optional("))
        #expect(!whole.description.contains("Initialization"))
    }

    private struct Failure: Error {}
}
