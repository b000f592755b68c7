import Foundation
import WeftInitializer

/// A process the benchmark steps leave untouched.
@MainActor
final class BenchmarkProcess: DependencyInitializationProcess {
    var toContainer: Int { 0 }
}

enum InitializerBenchmarks {
    @MainActor
    static func run() async {
        await overhead()
        await graphOverhead()
        await parallelEfficiency()
    }

    /// `rounds` runs of `count` no-op steps of one kind (`async`, `sync`, or `floor`: a bare task
    /// group of as many no-op child tasks), and the median run.
    @MainActor
    static func repeatRuns(_ kind: String, count: Int, rounds: Int) async {
        guard kind != "floor" else {
            var samples: [Double] = []
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                await withDiscardingTaskGroup { group in
                    for _ in 0..<count { group.addTask {} }
                }
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
            }
            print("floor: \(formatNanoseconds(samples.sorted()[samples.count / 2] / Double(count))) per task")
            return
        }
        let steps = (0..<count).map { index in
            kind == "sync"
                ? InitializationStep<BenchmarkProcess>.sync("s\(index)") { _ in }
                : InitializationStep<BenchmarkProcess>.async("s\(index)") { _ in }
        }
        guard let initializer = try? DependencyInitializer(createProcess: { BenchmarkProcess() }, steps: steps)
        else { return }
        let run = await timeRuns(initializer, rounds: rounds)
        print("\(kind): \(formatNanoseconds(run / Double(count))) per step")
    }

    /// Wall-clock nanoseconds of one run of `initializer`, median of `rounds`.
    @MainActor
    private static func timeRuns(_ initializer: DependencyInitializer<BenchmarkProcess>, rounds: Int) async -> Double {
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try? await initializer.run()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
            blackHole(result?.container)
        }
        return samples.sorted()[samples.count / 2]
    }

    @MainActor
    private static func overhead() async {
        var rows: [[String]] = []
        let syncCount = 10_000
        let syncSteps = (0..<syncCount).map { index in
            SyncInitializationStep<BenchmarkProcess>(title: "sync \(index)") { _ in }
        }
        if let initializer = try? DependencyInitializer(createProcess: { BenchmarkProcess() }, preSyncSteps: syncSteps)
        {
            let run = await timeRuns(initializer, rounds: 15)
            rows.append([
                "\(syncCount) no-op sync steps", formatNanoseconds(run), formatNanoseconds(run / Double(syncCount)),
            ])
        }
        let asyncCount = 1_000
        let asyncSteps = (0..<asyncCount).map { index in
            AsyncInitializationStep<BenchmarkProcess>(title: "async \(index)") { _ in }
        }
        if let initializer = try? DependencyInitializer(createProcess: { BenchmarkProcess() }, asyncSteps: asyncSteps) {
            let run = await timeRuns(initializer, rounds: 15)
            rows.append([
                "\(asyncCount) no-op async steps", formatNanoseconds(run), formatNanoseconds(run / Double(asyncCount)),
            ])
        }
        printTable(
            title: "Initializer: per-step overhead (median of 15 runs)", header: ["run", "wall", "per step"], rows: rows
        )
    }

    /// 1,000 no-op async steps as a graph: a random DAG (each step after up to three earlier
    /// ones), a chain (each after the one before) and independent steps.
    @MainActor
    private static func graphOverhead() async {
        let count = 1_000
        var generator = SystemRandomNumberGenerator()
        let shapes: [(String, (Int) -> [String])] = [
            (
                "random DAG",
                { index in
                    index == 0
                        ? []
                        : (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                            "s\(Int.random(in: 0..<index, using: &generator))"
                        }
                }
            ),
            ("chain", { index in index == 0 ? [] : ["s\(index - 1)"] }),
            ("independent", { _ in [] }),
        ]
        var rows: [[String]] = []
        for (name, after) in shapes {
            let steps = (0..<count).map { index in
                InitializationStep<BenchmarkProcess>.async("s\(index)", after: after(index)) { _ in }
            }
            guard let initializer = try? DependencyInitializer(createProcess: { BenchmarkProcess() }, steps: steps)
            else { continue }
            let run = await timeRuns(initializer, rounds: 15)
            rows.append([
                "\(count) no-op async steps, \(name)", formatNanoseconds(run), formatNanoseconds(run / Double(count)),
            ])
        }
        printTable(
            title: "Initializer: graph of async steps (median of 15 runs)", header: ["run", "wall", "per step"],
            rows: rows)
    }

    @MainActor
    private static func parallelEfficiency() async {
        let wait = 20
        var rows: [[String]] = []
        for count in [1, 8, 64] {
            let steps = (0..<count).map { index in
                AsyncInitializationStep<BenchmarkProcess>(title: "wait \(index)") { _ in
                    try await Task.sleep(for: .milliseconds(wait))
                }
            }
            guard let initializer = try? DependencyInitializer(createProcess: { BenchmarkProcess() }, asyncSteps: steps)
            else { continue }
            let run = await timeRuns(initializer, rounds: 11)
            let excess = run - Double(wait) * 1_000_000
            rows.append([
                "\(count)", "\(wait) ms", formatNanoseconds(run), formatNanoseconds(excess),
                excess < 5_000_000 ? "yes" : "NO",
            ])
        }
        printTable(
            title: "Initializer: N async steps each waiting d (median of 11 runs)",
            header: ["N", "d", "wall", "wall − d", "< 5 ms"],
            rows: rows
        )
    }
}
