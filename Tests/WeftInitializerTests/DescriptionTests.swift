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

    @Test("a step, an initializer, an on-demand handle and a budget read as declared")
    func declarations() throws {
        let search = OnDemand<Int>("search")
        let steps: [InitializationStep<TestProcess>] = [
            .sync("env", title: "Choose the environment") { _ in },
            .async(
                "fact", title: "Fetch the fact", after: ["env"], timeout: .seconds(2), retry: .exponential(attempts: 3)
            ) { _ in },
            .async("warm", after: ["fact"], optional: true, schedule: .afterReady) { _ in },
            .onDemand(search, after: ["env"]) { _ in 1 },
        ]
        #expect("\(steps[0])" == "'Choose the environment' (env): sync")
        #expect(
            "\(steps[1])"
                == "'Fetch the fact' (fact): async, after env, 3 attempts, 100 ms doubling to 10000 ms, 20% jitter, timeout 2.0 s"
        )
        #expect("\(steps[2])" == "'warm' (warm): async, after fact, optional, after ready")
        #expect("\(steps[3])" == "'search' (search): on demand, after env")
        let initializer = try DependencyInitializer(createProcess: { TestProcess() }, steps: steps)
        #expect("\(initializer)" == "initializer of 3 steps (2 before ready, 1 after) and 1 on demand")
        #expect("\(search)" == "on-demand step search")

        let budget = StartupBudget(
            ready: .init(median: .milliseconds(300), p90: .milliseconds(500)),
            steps: ["fact": .init(p90: .milliseconds(120))])
        #expect("\(budget)" == "ready: median ≤ 0.3 s, p90 ≤ 0.5 s\nstep fact: p90 ≤ 0.12 s")
        #expect("\(StartupBudget())" == "no limits")
    }

    private struct Failure: Error {}
}
