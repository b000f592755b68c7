import Testing
import WeftInitializer

/// A compact, comparable rendering of an event.
private func render(_ event: InitializationEvent) -> String {
    switch event {
    case .started(let steps): "start \(steps.count)"
    case .phaseStarted(let phase): "phase \(phase)"
    case .stepStarted(let step): "begin \(step.title)"
    case .stepFinished(let timing): "end \(timing.step.title)"
    case .stepFailed(let timing, let error): "fail \(timing.step.title) \(error)"
    case .stepCancelled(let timing): "cancel \(timing.step.title)"
    case .stepRetrying(let step, let attempt, _, _): "retry \(step.title) \(attempt)"
    case .stepSkipped(let timing): "skip \(timing.step.title)"
    case .phaseFinished(let timing): "/phase \(timing.phase)"
    case .ready: "ready"
    case .finished: "finished"
    case .failed(let step, _, _): "failed \(step.title)"
    }
}

@MainActor
@Suite("InitializationEvent", .timeLimit(.minutes(1)))
struct InitializationEventTests {
    @Test("a successful run streams its events in causal order and then finishes the stream")
    func successOrder() async throws {
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("p1"), logStep("p2")],
            asyncSteps: [logStep("a1", journal: journal), logStep("a2", journal: journal)],
            postSyncSteps: [logStep("q1")]
        )
        let events = initializer.events()
        _ = try await initializer.run()
        var rendered: [String] = []
        for await event in events { rendered.append(render(event)) }

        #expect(
            Array(rendered.prefix(7)) == [
                "start 5", "phase pre-sync", "begin p1", "end p1", "begin p2", "end p2", "/phase pre-sync",
            ])
        let asyncEvents = Array(rendered[7..<13])
        #expect(asyncEvents.first == "phase async")
        #expect(asyncEvents.last == "/phase async")
        for title in ["a1", "a2"] {
            let begin = try #require(asyncEvents.firstIndex(of: "begin \(title)"))
            let end = try #require(asyncEvents.firstIndex(of: "end \(title)"))
            #expect(begin < end)
        }
        #expect(
            Array(rendered.suffix(6)) == [
                "phase post-sync", "begin q1", "end q1", "/phase post-sync", "ready", "finished",
            ])
    }

    @Test("a failed run streams the failure, the cancelled siblings and ends with failed")
    func failureOrder() async throws {
        let barrier = Barrier(count: 2)
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "waits") { _ in
                    await barrier.arrive()
                    try await suspendUntilCancelled()
                },
                AsyncInitializationStep(title: "fails") { _ in
                    await barrier.arrive()
                    throw TestError(message: "boom")
                },
            ],
            postSyncSteps: [logStep("post")]
        )
        let events = initializer.events()
        _ = try? await initializer.run()
        var rendered: [String] = []
        for await event in events { rendered.append(render(event)) }
        #expect(Array(rendered.prefix(2)) == ["start 3", "phase async"])
        #expect(Set(rendered[2..<4]) == ["begin waits", "begin fails"])
        #expect(Array(rendered.suffix(3)) == ["fail fails boom", "cancel waits", "failed fails"])
        #expect(!rendered.contains { $0.contains("post") && $0 != "start 3" })
    }

    @Test("every subscriber receives the same events")
    func severalSubscribers() async throws {
        let initializer = try DependencyInitializer(createProcess: { TestProcess() }, preSyncSteps: [logStep("p")])
        let first = initializer.events()
        let second = initializer.events()
        _ = try await initializer.run()
        var a: [String] = []
        var b: [String] = []
        for await event in first { a.append(render(event)) }
        for await event in second { b.append(render(event)) }
        #expect(a == ["start 1", "phase pre-sync", "begin p", "end p", "/phase pre-sync", "ready", "finished"])
        #expect(a == b)
    }

    @Test("a stream that joins a run in progress sees its later moments but no step's, and finishes with it")
    func joinsInProgress() async throws {
        let started = Barrier(count: 2)
        let gate = Gate()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .async("slow") { _ in
                    await started.arrive()
                    await gate.wait()
                },
                .sync("next", after: ["slow"]) { _ in },
            ])
        let run = Task { try await initializer.run() }
        await started.arrive()
        let late = initializer.events()
        await gate.open()
        _ = try await run.value
        var seen: [String] = []
        for await event in late { seen.append(render(event)) }
        #expect(seen == ["ready", "/phase graph", "finished"])
    }
}
