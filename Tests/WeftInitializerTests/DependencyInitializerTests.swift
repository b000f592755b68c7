import Testing
import WeftInitializer

@MainActor
@Suite("DependencyInitializer", .timeLimit(.minutes(1)))
struct DependencyInitializerTests {
    @Test("runs pre-sync steps in order, then async steps, then post-sync steps in order")
    func phaseOrder() async throws {
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("pre 1"), logStep("pre 2"), logStep("pre 3")],
            asyncSteps: [logStep("async 1", journal: journal), logStep("async 2", journal: journal)],
            postSyncSteps: [logStep("post 1"), logStep("post 2")]
        )
        let result = try await initializer.run()
        let log = result.container.log
        #expect(Array(log.prefix(3)) == ["pre 1", "pre 2", "pre 3"])
        #expect(Set(log[3..<5]) == ["async 1", "async 2"])
        #expect(Array(log.suffix(2)) == ["post 1", "post 2"])
        #expect(result.process.log == log)
    }

    @Test("lists every step with its phase, index and position before the run starts")
    func plan() throws {
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("a")],
            asyncSteps: [logStep("b", .repeatable, journal: journal), logStep("c", journal: journal)],
            postSyncSteps: [logStep("", .repeatable)]
        )
        let plan = initializer.plan
        #expect(plan.map(\.title) == ["a", "b", "c", ""])
        #expect(plan.map(\.phase) == [.preSync, .async, .async, .postSync])
        #expect(plan.map(\.position) == [0, 1, 2, 3])
    }

    @Test("runs all async steps concurrently: every one reaches a barrier before any finishes")
    func asyncOverlap() async throws {
        let count = 8
        let barrier = Barrier(count: count)
        let journal = Journal()
        let steps = (0..<count).map { index in
            AsyncInitializationStep<TestProcess>(title: "step \(index)") { _ in
                await journal.record("arrive \(index)")
                await barrier.arrive()
                await journal.record("leave \(index)")
            }
        }
        let result = try await DependencyInitializer(createProcess: { TestProcess() }, asyncSteps: steps).run()

        let entries = await journal.entries
        let lastArrival = try #require(entries.lastIndex { $0.hasPrefix("arrive") })
        let firstLeave = try #require(entries.firstIndex { $0.hasPrefix("leave") })
        #expect(lastArrival < firstLeave)
        // The recorded timeline shows the overlap too: every step started before any ended.
        let latestStart = try #require(result.stepTimings.map(\.startOffset).max())
        let earliestEnd = try #require(result.stepTimings.map { $0.startOffset + $0.duration }.min())
        #expect(latestStart <= earliestEnd)
        #expect(result.stepTimings.count == count)
    }

    @Test("applies a value produced off the main actor to the process on the main actor")
    func produceApply() async throws {
        let result = try await DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "open database") { _ in
                    "sqlite:memory"
                } apply: { process, database in
                    process.database = database
                }
            ]
        ).run()
        #expect(result.container.database == "sqlite:memory")
    }

    @Test("rejects an initializer without steps with a typed error")
    func emptyLists() {
        let error = #expect(throws: InitializationConfigurationError.self) {
            try DependencyInitializer<TestProcess>(createProcess: { TestProcess() })
        }
        #expect(error?.code == .noSteps)
        #expect(error?.description.contains("at least one step") == true)
    }

    @Test("accepts a single non-empty list of any phase")
    func singleList() async throws {
        let journal = Journal()
        let onlyPre = try await DependencyInitializer(createProcess: { TestProcess() }, preSyncSteps: [logStep("p")])
            .run()
        let onlyAsync = try await DependencyInitializer(
            createProcess: { TestProcess() }, asyncSteps: [logStep("a", journal: journal)]
        ).run()
        let onlyPost = try await DependencyInitializer(createProcess: { TestProcess() }, postSyncSteps: [logStep("q")])
            .run()
        #expect(onlyPre.container.log == ["p"])
        #expect(onlyAsync.container.log == ["a"])
        #expect(onlyPost.container.log == ["q"])
    }

    @Test("reports success through the callbacks and the events, in order, with per-step timings")
    func callbacks() async throws {
        let log = CallbackLog()
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("pre")],
            asyncSteps: [logStep("async", journal: journal)],
            postSyncSteps: [logStep("post")],
            callbacks: InitializationCallbacks(
                onStart: { plan in log.entries.append("start \(plan.count)") },
                onStartStep: { step in log.entries.append("begin \(step.title)") },
                onSuccessStep: { step, _ in log.entries.append("end \(step.title)") },
                onSuccess: { result in
                    log.entries.append("success")
                    log.results.append(result)
                },
                onError: { _ in log.entries.append("error") }
            )
        )
        let events = initializer.events()
        try await initializer.start().value
        #expect(
            log.entries == [
                "start 3", "begin pre", "end pre", "begin async", "end async", "begin post", "end post", "success",
            ])
        let result = try #require(log.results.first)
        #expect(result.container.log == ["pre", "async", "post"])
        var phases: [InitializationPhase] = []
        for await event in events {
            if case .phaseFinished(let timing) = event { phases.append(timing.phase) }
        }
        #expect(phases == [.preSync, .async, .postSync])
        #expect(result.stepTimings.map(\.step.title) == ["pre", "async", "post"])
        #expect(result.stepTimings.allSatisfy { $0.outcome == .finished })
        let offsets = result.stepTimings.map(\.startOffset)
        #expect(offsets == offsets.sorted())
        #expect(result.elapsed >= result.stepTimings.map { $0.startOffset + $0.duration }.max() ?? .zero)
    }
}

extension DependencyInitializerTests {
    /// Starts `initializer` the way synchronous code (a scene delegate, a button) does.
    private func startFromSynchronousCode(_ initializer: DependencyInitializer<TestProcess>) throws -> Task<Void, Never>
    {
        try initializer.start()
    }

    @Test("start() runs the initializer from synchronous code and reports through the callbacks")
    func startFromSyncCode() async throws {
        let log = CallbackLog()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("only")],
            callbacks: InitializationCallbacks(onSuccess: { result in
                log.entries.append("success \(result.container.log)")
            })
        )
        try await startFromSynchronousCode(initializer).value
        #expect(log.entries == ["success [\"only\"]"])
    }
}

extension DependencyInitializerTests {
    /// An initializer whose one async step waits for `gate`, announcing itself on `entered`.
    private func gatedInitializer(entered: Gate, gate: Gate) throws -> DependencyInitializer<TestProcess> {
        try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "wait") { _ in
                    await entered.open()
                    await gate.wait()
                }
            ]
        )
    }

    @Test("refuses a second run while a run is in progress, with a typed error, and runs again once it ended")
    func secondConcurrentRun() async throws {
        let (entered, gate) = (Gate(), Gate())
        let initializer = try gatedInitializer(entered: entered, gate: gate)
        let events = initializer.events()
        let first = Task { try await initializer.run() }
        await entered.wait()

        let asyncError = await #expect(throws: InitializationConfigurationError.self) {
            try await initializer.run()
        }
        #expect(asyncError?.code == .alreadyRunning)
        #expect(asyncError?.description.contains("already running") == true)
        let startError = #expect(throws: InitializationConfigurationError.self) {
            try initializer.start()
        }
        #expect(startError?.code == .alreadyRunning)

        await gate.open()
        _ = try await first.value
        var started = 0
        for await event in events {
            if case .started = event { started += 1 }
        }
        #expect(started == 1)
        let again = try await initializer.run()
        #expect(again.stepTimings.map(\.outcome) == [.finished])
    }
}
