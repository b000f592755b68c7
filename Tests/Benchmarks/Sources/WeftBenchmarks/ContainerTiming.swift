import BenchmarkFixtures
import Dispatch

/// A timed loop: runs its operation `count` times.
typealias ContainerLoop = (_ count: Int) -> Void
/// A timed loop that may suspend.
typealias AsyncContainerLoop = (_ count: Int) async -> Void

/// Round-robin timing of several contenders: every round times each contender once, so
/// load from other processes on a shared machine hits them all alike. Results are medians.
enum ContainerTiming {
    /// Rounds per contender; the median of these is reported.
    static let rounds = 51
    /// Wall time one round aims for.
    static let roundBudget = 2_000_000.0

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func median(_ samples: [Double]) -> Double {
        samples.sorted()[samples.count / 2]
    }

    /// The iteration count that makes one round last about ``roundBudget``, given `estimate` ns/op.
    static func iterations(forEstimate estimate: Double) -> Int {
        Int(min(max(roundBudget / max(estimate, 0.25), 1_000), 50_000_000))
    }

    /// Median ns/op of each loop.
    static func perOp(_ loops: [ContainerLoop]) -> [Double] {
        let counts = loops.map { loop in
            loop(1_000)  // warm up: caches, first-resolve work, lazy metadata
            let start = now()
            loop(10_000)
            return iterations(forEstimate: Double(now() - start) / 10_000)
        }
        var samples = Array(repeating: [Double](), count: loops.count)
        for _ in 0..<rounds {
            for (index, loop) in loops.enumerated() {
                let start = now()
                loop(counts[index])
                samples[index].append(Double(now() - start) / Double(counts[index]))
            }
        }
        return samples.map(median)
    }

    /// Median ns/op of each async loop, run from the calling task.
    static func perOp(_ loops: [AsyncContainerLoop]) async -> [Double] {
        var counts: [Int] = []
        for loop in loops {
            await loop(1_000)
            let start = now()
            await loop(10_000)
            counts.append(iterations(forEstimate: Double(now() - start) / 10_000))
        }
        var samples = Array(repeating: [Double](), count: loops.count)
        for _ in 0..<rounds {
            for (index, loop) in loops.enumerated() {
                let start = now()
                await loop(counts[index])
                samples[index].append(Double(now() - start) / Double(counts[index]))
            }
        }
        return samples.map(median)
    }

    /// Per-op time when `threads` threads each run the loop concurrently: wall time of the
    /// whole round divided by the iterations one thread ran. Perfect scaling gives the same
    /// number for 1 and 2 threads; a fully serialized container gives twice as much for 2.
    /// Returns, per loop, the median per-op time with 1 thread and with `threads` threads.
    static func threadedPerOp(_ loops: [@Sendable (Int) -> Void], threads: Int) -> [(single: Double, multi: Double)] {
        let counts = loops.map { loop in
            loop(1_000)
            let start = now()
            loop(10_000)
            return iterations(forEstimate: Double(now() - start) / 10_000)
        }
        func round(_ loop: @Sendable (Int) -> Void, count: Int, threads: Int) -> Double {
            let start = now()
            DispatchQueue.concurrentPerform(iterations: threads) { _ in loop(count) }
            return Double(now() - start) / Double(count)
        }
        var single = Array(repeating: [Double](), count: loops.count)
        var multi = Array(repeating: [Double](), count: loops.count)
        for _ in 0..<rounds {
            for (index, loop) in loops.enumerated() {
                single[index].append(round(loop, count: counts[index], threads: 1))
                multi[index].append(round(loop, count: counts[index], threads: threads))
            }
        }
        return loops.indices.map { (median(single[$0]), median(multi[$0])) }
    }

    /// Median nanoseconds of `body` over `rounds` fresh subjects; making the subject and
    /// releasing it afterwards are not timed.
    static func once<Subject>(rounds: Int = 31, make: () -> Subject, _ body: (Subject) -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<rounds {
            let subject = make()
            let start = now()
            body(subject)
            samples.append(Double(now() - start))
            containerSink(subject)
        }
        return median(samples)
    }
}

/// Keeps a benchmarked value alive and observed, so the optimizer can neither delete the work
/// nor move an allocation to the stack.
///
/// Harness's `blackHole` (`withExtendedLifetime(value) {}`) is transparent to the optimizer: a
/// hand-wired `let` read disappears (0.0 ns) and `TransientService()` is stack-promoted
/// (`swift_initStackObject` instead of `swift_allocObject`), which flatters the hand-wired
/// column. An unoptimized callee is opaque, so the value really escapes.
@inline(never) @_optimize(none)
func containerSink<T>(_ value: T) {}
