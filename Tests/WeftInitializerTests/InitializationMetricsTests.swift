import CoreMetrics
import MetricsTestKit
import Testing
import WeftInitializer

/// Fails the first `failures` calls, then succeeds.
private actor Flaky {
    private var failures: Int
    init(failures: Int) { self.failures = failures }
    func call() throws {
        if failures > 0 {
            failures -= 1
            throw TestError(message: "not yet")
        }
    }
}

@MainActor
@Suite("Start-up metrics through swift-metrics", .timeLimit(.minutes(1)))
struct InitializationMetricsTests {
    /// A graph whose `fetch` succeeds on its third attempt and whose optional `history` fails.
    private func degradedStartUp() throws -> DependencyInitializer<TestProcess> {
        let flaky = Flaky(failures: 2)
        return try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: [
                .sync("config") { $0.append("config") },
                .async(
                    "fetch", after: ["config"], retry: .exponential(attempts: 3, baseDelay: .milliseconds(1), jitter: 0)
                ) {
                    _ in try await flaky.call()
                },
                .async("history", optional: true) { _ in throw TestError(message: "locked") },
            ])
    }

    @Test("Each step's duration by outcome, its attempts and retries, and the run's duration and outcome")
    func degradedRun() async throws {
        let metrics = TestMetrics()
        let result = try await withMetricsFactory(metrics) { try await degradedStartUp().run() }
        #expect(result.isDegraded)

        for (step, outcome) in [("config", "finished"), ("fetch", "finished"), ("history", "failed")] {
            let timer = try metrics.expectTimer(
                "weft_startup_step_duration_seconds", [("step", step), ("outcome", outcome)])
            let timing = try #require(result.report.steps.first { $0.step.id == step })
            #expect(timer.values == [timing.duration.nanoseconds], "\(step)")
        }
        #expect(metrics.counterTotal(label: "weft_startup_step_attempts_total", dimensions: [("step", "fetch")]) == 3)
        #expect(metrics.counterTotal(label: "weft_startup_step_retries_total", dimensions: [("step", "fetch")]) == 2)
        #expect(metrics.counters(label: "weft_startup_step_retries_total", dimensions: [("step", "config")]).isEmpty)
        let run = try metrics.expectTimer("weft_startup_duration_seconds", [("outcome", "degraded")])
        #expect(run.values == [result.elapsed.nanoseconds])
        #expect(metrics.counterTotal(label: "weft_startup_runs_total", dimensions: [("outcome", "degraded")]) == 1)
    }

    @Test("An on-demand step records its duration and attempts where its run's metrics went, whoever asks")
    func onDemandStep() async throws {
        let metrics = TestMetrics()
        let flaky = Flaky(failures: 1)
        let index = OnDemand<Int>("index")
        let result = try await withMetricsFactory(metrics) {
            try await DependencyInitializer(
                createProcess: { TestProcess() },
                steps: [
                    .sync("config") { _ in },
                    .onDemand(index, retry: .exponential(attempts: 2, baseDelay: .milliseconds(1), jitter: 0)) { _ in
                        try await flaky.call()
                        return 3
                    },
                ]
            ).run()
        }
        #expect(try await index.value() == 3)
        let timer = try metrics.expectTimer(
            "weft_startup_step_duration_seconds", [("step", "index"), ("outcome", "finished")])
        #expect(timer.values == [try #require(result.onDemandSteps.first).duration.nanoseconds])
        #expect(metrics.counterTotal(label: "weft_startup_step_attempts_total", dimensions: [("step", "index")]) == 2)
        #expect(metrics.counterTotal(label: "weft_startup_step_retries_total", dimensions: [("step", "index")]) == 1)
    }

    @Test("A failed run is counted as failed; a run outside the binding records nothing into it")
    func failedRun() async throws {
        let metrics = TestMetrics()
        let failing = try DependencyInitializer(
            createProcess: { TestProcess() }, steps: [.async("fetch") { _ in throw TestError(message: "down") }])
        _ = await withMetricsFactory(metrics) {
            await #expect(throws: InitializationFailure<TestProcess>.self) { try await failing.run() }
        }
        #expect(metrics.counterTotal(label: "weft_startup_runs_total", dimensions: [("outcome", "failed")]) == 1)
        _ = try await degradedStartUp().run()  // no backend here: the global factory is the no-op one
        #expect(MetricsSystem.factory is NOOPMetricsHandler)
        #expect(metrics.counters(label: "weft_startup_runs_total", dimensions: [("outcome", "degraded")]).isEmpty)
    }
}

extension Duration {
    /// Whole nanoseconds, as the metrics record them.
    fileprivate var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
