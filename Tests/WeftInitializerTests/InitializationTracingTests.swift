import InMemoryTracing
import Testing
import Tracing
import WeftInitializer

/// Every run is a span tree: the run, its phases, its steps — asserted on an in-memory tracer.
@MainActor
@Suite("Tracing the start-up", .timeLimit(.minutes(1)))
struct InitializationTracingTests {
    private func span(_ name: String, in spans: [FinishedInMemorySpan]) throws -> FinishedInMemorySpan {
        try #require(spans.first { $0.operationName == name }, "no span \(name) in \(spans.map(\.operationName))")
    }

    @Test("A run is a tree: the run, one span per phase, one per step, with attributes")
    func spanTree() async throws {
        let tracer = InMemoryTracer()
        let journal = Journal()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            preSyncSteps: [logStep("load", .repeatable)],
            asyncSteps: [logStep("fetch", journal: journal)],
            postSyncSteps: [logStep("assemble")],
            tracer: tracer
        )
        _ = try await initializer.run()
        let spans = tracer.finishedSpans
        let run = try span("weft.initialize", in: spans)
        #expect(run.parentSpanID == nil)
        #expect(run.attributes["weft.initialize.outcome"]?.toSpanAttribute() == "finished")
        #expect(run.attributes["weft.initialize.repeat"]?.toSpanAttribute() == false)
        let phases = ["pre-sync", "async", "post-sync"].map { "weft.phase \($0)" }
        for name in phases { #expect(try span(name, in: spans).parentSpanID == run.spanID) }
        let load = try span("load", in: spans)
        #expect(load.parentSpanID == (try span("weft.phase pre-sync", in: spans)).spanID)
        #expect(load.attributes["weft.step.type"]?.toSpanAttribute() == "repeatable")
        #expect(load.attributes["weft.step.outcome"]?.toSpanAttribute() == "finished")
        #expect(try span("fetch", in: spans).parentSpanID == (try span("weft.phase async", in: spans)).spanID)
        #expect(try span("assemble", in: spans).attributes["weft.step.phase"]?.toSpanAttribute() == "post-sync")
        #expect(spans.allSatisfy { $0.traceID == run.traceID })
    }

    @Test("Parallel async steps' spans overlap, and spans a step starts are its children")
    func parallelStepsOverlap() async throws {
        let tracer = InMemoryTracer()
        let barrier = Barrier(count: 2)
        let step: (String) -> AsyncInitializationStep<TestProcess> = { title in
            AsyncInitializationStep(title: title) { _ in
                await barrier.arrive()  // neither finishes before both started
                // Started like a library would (an HTTP client, say), from the task's context.
                tracer.withSpan("\(title).inner") { _ in }
            }
        }
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() }, asyncSteps: [step("a"), step("b")], tracer: tracer)
        _ = try await initializer.run()
        let spans = tracer.finishedSpans
        let a = try span("a", in: spans)
        let b = try span("b", in: spans)
        #expect(a.startInstant.nanosecondsSinceEpoch < b.endInstant.nanosecondsSinceEpoch)
        #expect(b.startInstant.nanosecondsSinceEpoch < a.endInstant.nanosecondsSinceEpoch)
        #expect(try span("a.inner", in: spans).parentSpanID == a.spanID)
        #expect(try span("b.inner", in: spans).parentSpanID == b.spanID)
    }

    @Test("The failing step's span and the run's carry the error; its siblings end cancelled")
    func failureRecorded() async throws {
        let tracer = InMemoryTracer()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "broken") { _ in throw TestError(message: "no network") },
                AsyncInitializationStep(title: "slow") { _ in try await suspendUntilCancelled() },
            ],
            tracer: tracer
        )
        await #expect(throws: InitializationFailure<TestProcess>.self) { try await initializer.run() }
        let spans = tracer.finishedSpans
        let broken = try span("broken", in: spans)
        #expect(broken.status?.code == .error)
        #expect(broken.errors.map { "\($0.error)" } == ["no network"])
        #expect(try span("slow", in: spans).attributes["weft.step.outcome"]?.toSpanAttribute() == "cancelled")
        let run = try span("weft.initialize", in: spans)
        #expect(run.status?.code == .error)
        #expect(run.attributes["weft.initialize.failed_step"]?.toSpanAttribute() == "broken")
        #expect(run.errors.count == 1)
    }

    @Test("A cancelled run's span reads cancelled and names no failed step; its running steps' spans end cancelled")
    func cancellationRecorded() async throws {
        let tracer = InMemoryTracer()
        let started = Barrier(count: 2)
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            asyncSteps: [
                AsyncInitializationStep(title: "slow") { _ in
                    await started.arrive()
                    try await suspendUntilCancelled()
                }
            ],
            tracer: tracer
        )
        let run = Task { try await initializer.run() }
        await started.arrive()
        run.cancel()
        await #expect(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        let spans = tracer.finishedSpans
        let slow = try span("slow", in: spans)
        #expect(slow.attributes["weft.step.outcome"]?.toSpanAttribute() == "cancelled")
        #expect(slow.errors.isEmpty && slow.status?.code != .error)
        let runSpan = try span("weft.initialize", in: spans)
        #expect(runSpan.attributes["weft.initialize.outcome"]?.toSpanAttribute() == "cancelled")
        #expect(runSpan.attributes["weft.initialize.failed_step"] == nil)
    }

    @Test("A runRepeat run is a tree of its own, marked as a repeat")
    func repeatIsItsOwnTree() async throws {
        let tracer = InMemoryTracer()
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() }, preSyncSteps: [logStep("load", .repeatable)], tracer: tracer)
        let first = try await initializer.run()
        _ = try await first.runRepeat()
        let runs = tracer.finishedSpans.filter { $0.operationName == "weft.initialize" }
        #expect(runs.count == 2)
        #expect(Set(runs.map(\.traceID)).count == 2)
        #expect(runs.map { $0.attributes["weft.initialize.repeat"]?.toSpanAttribute() } == [false, true])
    }
}

/// An on-demand step's run is a span under the request that needed it, linked to the run's.
@MainActor
@Suite("Tracing on-demand steps", .timeLimit(.minutes(1)))
struct OnDemandTracingTests {
    @Test("The step's span is a child of the requesting span, links to the run, and carries retries and errors")
    func onDemandSpan() async throws {
        let tracer = InMemoryTracer()
        let index = OnDemand<Int>("index")
        _ = try await DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .sync("config") { _ in },
                .onDemand(
                    index, title: "Build the index", retry: .exponential(attempts: 2, baseDelay: .zero)
                ) { _ in
                    // Spans the step's work starts are the step span's children.
                    tracer.withSpan("index.inner") { _ in }
                    throw TestError(message: "disk full")
                },
            ],
            tracer: tracer
        ).run()
        _ = await tracer.withSpan("GET /search") { _ in
            await #expect(throws: OnDemandStepError.self) { try await index.value() }
        }
        let spans = tracer.finishedSpans
        let run = try #require(spans.first { $0.operationName == "weft.initialize" })
        let request = try #require(spans.first { $0.operationName == "GET /search" })
        let step = try #require(spans.first { $0.operationName == "Build the index" })
        #expect(step.parentSpanID == request.spanID)
        #expect(step.links.compactMap { $0.context.inMemorySpanContext?.spanID } == [run.spanID])
        #expect(step.attributes["weft.step.id"]?.toSpanAttribute() == "index")
        #expect(step.attributes["weft.step.schedule"]?.toSpanAttribute() == "on demand")
        #expect(step.attributes["weft.step.outcome"]?.toSpanAttribute() == "failed")
        #expect(step.attributes["weft.step.attempts"]?.toSpanAttribute() == 2)
        #expect(step.events.map(\.name) == ["weft.step.retry"])
        #expect(step.status?.code == .error)
        let inner = spans.filter { $0.operationName == "index.inner" }
        #expect(inner.count == 2 && inner.allSatisfy { $0.parentSpanID == step.spanID })
    }
}
