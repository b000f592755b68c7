import Benchmark
import Foundation
import WeftInitializer

// The initializer's overhead: runs of N no-op async steps (independent), and of N no-op sync
// steps, one run per iteration. Counts with `WEFT_BENCHMARK_COUNTS=1` (mallocs only: Swift
// 6.3's runtime hooks crash under a run's many tasks), wall time otherwise; see
// WeftResolution.swift.

/// A process the steps leave untouched.
@MainActor
final class StartupProcess: DependencyInitializationProcess {
    var toContainer: Int { 0 }
}

let counts = ProcessInfo.processInfo.environment["WEFT_BENCHMARK_COUNTS"] == "1"

/// A run's malloc count may move by 0.6 of an allocation per step, and by 25 in all (the task
/// pool's own allocations vary with the load: 97 to 105 measured for 10 steps), not by one
/// allocation per step; the runs of 1,000 and 10,000 steps are the ones that see that.
func tolerance(steps: Int) -> [BenchmarkMetric: BenchmarkThresholds] {
    [.mallocCountTotal: .init(absolute: [.p90: max(25, steps * 6 / 10)])]
}

@MainActor
func initializer(asyncSteps count: Int) -> DependencyInitializer<StartupProcess>? {
    let steps = (0..<count).map { index in InitializationStep<StartupProcess>.async("s\(index)") { _ in } }
    return try? DependencyInitializer(createProcess: { StartupProcess() }, steps: steps)
}

@MainActor
func initializer(syncSteps count: Int) -> DependencyInitializer<StartupProcess>? {
    let steps = (0..<count).map { index in InitializationStep<StartupProcess>.sync("s\(index)") { _ in } }
    return try? DependencyInitializer(createProcess: { StartupProcess() }, steps: steps)
}

/// The floor under a run of `count` async steps: a task group on the main actor that starts
/// `count` child tasks doing nothing and waits for them.
@MainActor
func floor(asyncSteps count: Int) async {
    await withDiscardingTaskGroup { group in
        for _ in 0..<count { group.addTask {} }
    }
}

/// A run with one on-demand step, ready to be asked for, and its handle.
@MainActor
func onDemandRun() async -> (InitializationResult<StartupProcess>, OnDemand<Int>)? {
    let value = OnDemand<Int>("value")
    let steps: [InitializationStep<StartupProcess>] = [.sync("ready") { _ in }, .onDemand(value) { _ in 42 }]
    guard let result = try? await DependencyInitializer(createProcess: { StartupProcess() }, steps: steps).run() else {
        return nil
    }
    return (result, value)
}

/// Asks `handle` for its value `count` times, one after the other.
@MainActor
func request(_ handle: OnDemand<Int>, times count: Int) async -> Int {
    var total = 0
    for _ in 0..<count { total &+= (try? await handle.value()) ?? 0 }
    return total
}

let benchmarks: @Sendable () -> Void = {
    for count in [10, 1_000, 10_000] {
        let configuration = Benchmark.Configuration(
            metrics: counts ? [.mallocCountTotal] : [.wallClock], warmupIterations: 2,
            maxDuration: .seconds(1), maxIterations: count >= 10_000 ? 10 : 200, thresholds: tolerance(steps: count))
        Benchmark("async-steps-\(count)-floor", configuration: configuration) { benchmark in
            benchmark.startMeasurement()
            await floor(asyncSteps: count)
            benchmark.stopMeasurement()
        }
        Benchmark("async-steps-\(count)-one-run", configuration: configuration) { benchmark in
            guard let initializer = await initializer(asyncSteps: count) else { return }
            benchmark.startMeasurement()
            blackHole(try? await initializer.run())
            benchmark.stopMeasurement()
        }
    }
    let configuration = Benchmark.Configuration(
        metrics: counts ? [.mallocCountTotal] : [.wallClock], warmupIterations: 2, maxDuration: .seconds(1),
        maxIterations: 20, thresholds: tolerance(steps: 10_000))
    Benchmark("sync-steps-10000-one-run", configuration: configuration) { benchmark in
        guard let initializer = await initializer(syncSteps: 10_000) else { return }
        benchmark.startMeasurement()
        blackHole(try? await initializer.run())
        benchmark.stopMeasurement()
    }
    // An on-demand step's first request (its run: a task, the step's attempt, the shared wait),
    // and 1,000 requests for the value it keeps, which allocate nothing.
    let onDemand = Benchmark.Configuration(
        metrics: counts ? [.mallocCountTotal] : [.wallClock], warmupIterations: 2, maxDuration: .seconds(1),
        maxIterations: 200, thresholds: [.mallocCountTotal: .init(absolute: [.p90: 4])])
    // The first request's task allocations vary with the load, as a run's do: 13 on an idle
    // machine and in one CI run beside the fuzzing, 15 or more in earlier ones (2026-11-29).
    var firstRequest = onDemand
    firstRequest.thresholds = [.mallocCountTotal: .init(absolute: [.p90: 6])]
    Benchmark("on-demand-first-request", configuration: firstRequest) { benchmark in
        guard let (result, handle) = await onDemandRun() else { return }
        benchmark.startMeasurement()
        blackHole(await request(handle, times: 1))
        benchmark.stopMeasurement()
        blackHole(result)
    }
    Benchmark("on-demand-kept-value-1000-requests", configuration: onDemand) { benchmark in
        guard let (result, handle) = await onDemandRun() else { return }
        _ = await request(handle, times: 1)
        benchmark.startMeasurement()
        blackHole(await request(handle, times: 1_000))
        benchmark.stopMeasurement()
        blackHole(result)
    }
}
