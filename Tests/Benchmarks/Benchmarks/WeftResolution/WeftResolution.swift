import Benchmark
import BenchmarkFixtures
import Dispatch
import Foundation
import Swinject
import Weft

// Weft's resolves beside the floor (`SnapshotFloor`) and Swinject 2.10.0, per resolve (1,000
// resolves per iteration: `scaledIterations`).
//
// Two runs, because counting retains hooks every retain and release and so slows what it
// counts: `WEFT_BENCHMARK_COUNTS=1` measures mallocs, retains and releases, which
// `scripts/test --full` checks against Thresholds/; without it, wall time alone (p50, p99), which is
// reported, never asserted.

/// Whether this run counts (mallocs, retains, releases) rather than times.
let counts = ProcessInfo.processInfo.environment["WEFT_BENCHMARK_COUNTS"] == "1"

/// The metrics of every benchmark here.
let metrics: [BenchmarkMetric] = counts ? [.mallocCountTotal, .retainCount, .releaseCount] : [.wallClock]

/// How far each count may move from its threshold before `scripts/test` fails.
func countTolerance(absolute: Int) -> [BenchmarkMetric: BenchmarkThresholds] {
    let tolerance = BenchmarkThresholds(absolute: [.p90: absolute])
    return [.mallocCountTotal: tolerance, .retainCount: tolerance, .releaseCount: tolerance]
}

func makeSwinject() -> Swinject.Container {
    let swinject = Swinject.Container()
    swinject.register(CachedService.self) { _ in CachedService() }.inObjectScope(.container)
    swinject.register(TransientService.self) { _ in TransientService() }.inObjectScope(.transient)
    swinject.register(GraphDependencyA.self) { _ in GraphDependencyA() }.inObjectScope(.transient)
    swinject.register(GraphDependencyB.self) { _ in GraphDependencyB() }.inObjectScope(.transient)
    swinject.register(GraphDependencyC.self) { _ in GraphDependencyC() }.inObjectScope(.transient)
    swinject.register(GraphRoot.self) { r in
        GraphRoot(
            a: required(r.resolve(GraphDependencyA.self)), b: required(r.resolve(GraphDependencyB.self)),
            c: required(r.resolve(GraphDependencyC.self)))
    }.inObjectScope(.transient)
    return swinject
}

/// The floor's resolve from an `async` function, as `resolveAsync` is called: the floor has no
/// `async` path, so this is its synchronous one behind an `async` call.
@inline(never)
func asyncResolve<T: Sendable>(_ type: T.Type, from floor: SnapshotFloor<ObjectIdentifier>) async -> T? {
    floor.resolve(type)
}

let benchmarks: @Sendable () -> Void = {
    // Counts are per 1,000 resolves; the tolerance lets a count drift by 10 of them (a retain
    // once per run, say) but not by one per resolve, which adds 1,000.
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, warmupIterations: 10, scalingFactor: .kilo, maxDuration: .milliseconds(700),
        maxIterations: 2_000, thresholds: countTolerance(absolute: 10))

    // MARK: Resolves, Weft beside the floor and Swinject

    Benchmark("cached-singleton-floor") { (benchmark: Benchmark, floor: SnapshotFloor<ObjectIdentifier>) in
        for _ in benchmark.scaledIterations { blackHole(floor.resolve(CachedService.self)) }
    } setup: {
        floorFixture()
    }
    Benchmark("cached-singleton-Weft") { (benchmark: Benchmark, weft: Weft.Container) in
        for _ in benchmark.scaledIterations { blackHole(weft.resolve(CachedService.self)) }
    } setup: {
        let weft = weftFixture()
        _ = weft.resolve(CachedService.self)
        return weft
    }
    Benchmark("cached-singleton-Swinject") { (benchmark: Benchmark, swinject: Swinject.Container) in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(CachedService.self)) }
    } setup: {
        makeSwinject()
    }
    Benchmark("transient-floor") { (benchmark: Benchmark, floor: SnapshotFloor<ObjectIdentifier>) in
        for _ in benchmark.scaledIterations { blackHole(floor.resolve(TransientService.self)) }
    } setup: {
        floorFixture()
    }
    Benchmark("transient-Weft") { (benchmark: Benchmark, weft: Weft.Container) in
        for _ in benchmark.scaledIterations { blackHole(weft.resolve(TransientService.self)) }
    } setup: {
        weftFixture()
    }
    Benchmark("transient-Swinject") { (benchmark: Benchmark, swinject: Swinject.Container) in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(TransientService.self)) }
    } setup: {
        makeSwinject()
    }
    Benchmark("graph-of-4-floor") { (benchmark: Benchmark, floor: SnapshotFloor<ObjectIdentifier>) in
        for _ in benchmark.scaledIterations { blackHole(floor.resolve(GraphRoot.self)) }
    } setup: {
        floorFixture()
    }
    Benchmark("graph-of-4-Weft") { (benchmark: Benchmark, weft: Weft.Container) in
        for _ in benchmark.scaledIterations { blackHole(weft.resolve(GraphRoot.self)) }
    } setup: {
        weftFixture()
    }
    Benchmark("graph-of-4-Swinject") { (benchmark: Benchmark, swinject: Swinject.Container) in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(GraphRoot.self)) }
    } setup: {
        makeSwinject()
    }

    // MARK: Other lifetimes and async

    Benchmark("scoped-cached-Weft") { (benchmark: Benchmark, scope: Weft.Container) in
        for _ in benchmark.scaledIterations { blackHole(scope.resolve(CachedService.self)) }
    } setup: {
        let root = Weft.Container()
        root.register(CachedService.self, lifetime: .scoped) { CachedService() }
        let scope = root.createScope()
        _ = scope.resolve(CachedService.self)
        return scope
    }
    Benchmark("weak-held-Weft") { (benchmark: Benchmark, state: (Weft.Container, CachedService)) in
        for _ in benchmark.scaledIterations { blackHole(state.0.resolve(CachedService.self)) }
    } setup: {
        let weft = Weft.Container()
        weft.register(CachedService.self, lifetime: .weak) { CachedService() }
        return (weft, required(weft.resolve(CachedService.self)))
    }
    Benchmark("async-cached-singleton-floor") { (benchmark: Benchmark, floor: SnapshotFloor<ObjectIdentifier>) in
        for _ in benchmark.scaledIterations { blackHole(await asyncResolve(CachedService.self, from: floor)) }
    } setup: {
        floorFixture()
    }
    Benchmark("async-cached-singleton-Weft") { (benchmark: Benchmark, weft: Weft.Container) in
        for _ in benchmark.scaledIterations { blackHole(try? await weft.resolveAsync(CachedService.self)) }
    } setup: {
        let weft = weftFixture()
        _ = weft.resolve(CachedService.self)
        return weft
    }
    Benchmark("async-transient-floor") { (benchmark: Benchmark, floor: SnapshotFloor<ObjectIdentifier>) in
        for _ in benchmark.scaledIterations { blackHole(await asyncResolve(TransientService.self, from: floor)) }
    } setup: {
        floorFixture()
    }
    Benchmark("async-transient-Weft") { (benchmark: Benchmark, weft: Weft.Container) in
        for _ in benchmark.scaledIterations { blackHole(try? await weft.resolveAsync(TransientService.self)) }
    } setup: {
        weftFixture()
    }
    Benchmark("cached-singleton-2-threads-floor") { (benchmark: Benchmark, floor: SnapshotFloor<ObjectIdentifier>) in
        let perThread = benchmark.scaledIterations.count / 2
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<perThread { blackHole(floor.resolve(CachedService.self)) }
        }
    } setup: {
        floorFixture()
    }
    Benchmark("cached-singleton-2-threads-Weft") { (benchmark: Benchmark, weft: Weft.Container) in
        let perThread = benchmark.scaledIterations.count / 2
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<perThread { blackHole(weft.resolve(CachedService.self)) }
        }
    } setup: {
        let weft = weftFixture()
        _ = weft.resolve(CachedService.self)
        return weft
    }

    // MARK: How the cost grows

    for depth in [1, 100, 1_000] {
        // Per node: `depth` nodes per resolve, so 1,000 nodes per iteration.
        Benchmark("chain-of-\(depth)-per-node-floor") { (benchmark: Benchmark, floor: SnapshotFloor<String>) in
            for _ in 0..<(1_000 / depth) { blackHole(floor.resolve(ChainNode.self, key: "n0")) }
        } setup: {
            floorChain(depth)
        }
        Benchmark("chain-of-\(depth)-per-node-Weft") { (benchmark: Benchmark, weft: Weft.Container) in
            for _ in 0..<(1_000 / depth) { blackHole(weft.resolve(ChainNode.self, name: "n0")) }
        } setup: {
            weftChain(depth)
        }
    }
    for depth in [1, 8, 64] {
        Benchmark("singleton-from-scope-\(depth)-deep-Weft") { (benchmark: Benchmark, scope: Weft.Container) in
            for _ in benchmark.scaledIterations { blackHole(scope.resolve(CachedService.self)) }
        } setup: {
            let root = weftFixture()
            _ = root.resolve(CachedService.self)
            var scope = root
            for _ in 0..<depth { scope = scope.createScope() }
            return scope
        }
    }

    // MARK: Registering, beside a plain dictionary insert

    for count in [1_000, 10_000, 100_000] {
        let names = (0..<count).map { "service-\($0)" }
        // Mallocs, not retains: Swift 6.3's runtime hooks crash under this many allocations
        // (package-benchmark's issue 349; its workaround, a runtime interposer, is not available
        // here). Per run of `count` registrations: the ratio to the dictionary is what counts.
        let configuration = Benchmark.Configuration(
            metrics: counts ? [.mallocCountTotal] : [.wallClock], scalingFactor: .one,
            maxDuration: .milliseconds(700), maxIterations: count >= 100_000 ? 20 : 200,
            thresholds: countTolerance(absolute: count / 100))
        Benchmark("registrations-\(count)-Weft", configuration: configuration) {
            benchmark in
            let weft = Weft.Container()
            benchmark.startMeasurement()
            for name in names { weft.register(TransientService.self, name: name) { TransientService() } }
            benchmark.stopMeasurement()
            blackHole(weft)
        }
        Benchmark("registrations-\(count)-dictionary-insert", configuration: configuration) {
            benchmark in
            var factories: [String: @Sendable () -> TransientService] = [:]
            benchmark.startMeasurement()
            for name in names { factories[name] = { TransientService() } }
            benchmark.stopMeasurement()
            blackHole(factories)
        }
    }
}
