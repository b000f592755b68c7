import BenchmarkFixtures
import Dispatch
import Foundation
import GraphFixtures
import Weft

#if LARGE_GRAPH
    import LargeGraphFixtures
#endif

/// Building a whole generated graph (issue 44), Weft beside the same graph wired by hand, for
/// the README: the table of WeftColdStart's package-benchmark rows, but with Weft and the
/// hand-written wiring taking turns, so that a slow spell of this shared machine hits both
/// alike. Each ratio is Weft's p50 ÷ the hand-written p50.
///
/// Per graph and round, alternately (the first one changes each round): a cold build (every
/// class asked for once, in the graphs' shuffled order, from a fresh container registered
/// outside the timing, or a fresh `HandWired`), a warm one (the same again, all built: the mean
/// of 10 passes), and a cold one in four tasks at once (the `Mutex` wiring by hand). The small
/// graph builds 10 times a round, the large one once, so that each round takes about as long.
///
/// `WeftBenchmarks coldstart [rounds]` (15 unless given).
enum ColdStartBenchmarks {
    static func run(rounds: Int) {
        var rows = rows(Graph191.self, rounds: rounds)
        #if LARGE_GRAPH
            rows += self.rows(Graph2000.self, rounds: rounds)
        #endif
        printTable(
            title:
                "Cold start: a whole generated graph, Weft beside hand-written wiring (p50 of \(rounds) interleaved rounds)",
            header: ["graph", "build", "Weft p50", "hand-written p50", "Weft ÷ hand-written"], rows: rows
        )
    }

    /// The three rows of one graph.
    static func rows<Graph: GeneratedGraph>(_ graph: Graph.Type, rounds: Int) -> [[String]] {
        Graph.verify()
        let resolveAll = Graph.resolveAll
        let buildAll = Graph.HandWired.buildAll
        let buildAllLocked = Graph.HandWiredLocked.buildAll
        let builds = max(1, 2_000 / Graph.classCount)
        /// Cold, warm and four tasks: Weft's samples, then the hand-written ones (nanoseconds).
        var weft = Array(repeating: [Double](), count: 3)
        var handWritten = weft
        for round in 0..<rounds {
            for _ in 0..<builds {
                let turns: [() -> Void] = [
                    {
                        let container = Weft.Container()
                        Graph.register(in: container)
                        weft[0].append(time { for resolve in resolveAll { blackHole(resolve(container)) } })
                        weft[1].append(time(passes: 10) { for resolve in resolveAll { blackHole(resolve(container)) } })
                        let fresh = Weft.Container()
                        Graph.register(in: fresh)
                        weft[2].append(time { inFourTasks(fresh, resolveAll) })
                    },
                    {
                        let wiring = Graph.HandWired()
                        handWritten[0].append(time { for build in buildAll { blackHole(build(wiring)) } })
                        handWritten[1].append(time(passes: 10) { for build in buildAll { blackHole(build(wiring)) } })
                        let locked = Graph.HandWiredLocked()
                        handWritten[2].append(time { inFourTasks(locked, buildAllLocked) })
                    },
                ]
                for turn in round.isMultiple(of: 2) ? turns : turns.reversed() { turn() }
            }
        }
        let median = { (samples: [Double]) in samples.sorted()[samples.count / 2] }
        return zip(["cold", "warm", "cold, 4 tasks"], zip(weft.map(median), handWritten.map(median))).map {
            build, p50 in
            [
                "\(Graph.classCount.formatted()) classes", build, String(format: "%.1f µs", p50.0 / 1_000),
                String(format: "%.1f µs", p50.1 / 1_000), String(format: "%.2f×", p50.0 / p50.1),
            ]
        }
    }

    /// What a dependency costs inside a factory once it is made, beside a resolve of it from
    /// outside: a transient whose factory resolves three cached singletons, less one whose
    /// factory resolves none, per dependency; and a top-level resolve of a cached singleton.
    /// The three are resolved a million times each, in turns, 15 rounds; p50 of the rounds.
    static func edges() {
        let container = Weft.Container()
        container.register(GraphDependencyA.self, lifetime: .singleton) { GraphDependencyA() }
        container.register(GraphDependencyB.self, lifetime: .singleton) { GraphDependencyB() }
        container.register(GraphDependencyC.self, lifetime: .singleton) { GraphDependencyC() }
        container.register(GraphRoot.self) { r in
            GraphRoot(
                a: try r.resolve(GraphDependencyA.self), b: try r.resolve(GraphDependencyB.self),
                c: try r.resolve(GraphDependencyC.self))
        }
        container.register(TransientService.self) { TransientService() }
        _ = container.resolve(GraphRoot.self)
        let count = 1_000_000
        var (withThree, withNone, topLevel) = ([Double](), [Double](), [Double]())
        for _ in 0..<15 {
            withThree.append(time { for _ in 0..<count { blackHole(container.resolve(GraphRoot.self)) } })
            withNone.append(time { for _ in 0..<count { blackHole(container.resolve(TransientService.self)) } })
            topLevel.append(time { for _ in 0..<count { blackHole(container.resolve(GraphDependencyA.self)) } })
        }
        let median = { (samples: [Double]) in samples.sorted()[samples.count / 2] / Double(count) }
        let edge = (median(withThree) - median(withNone)) / 3
        printTable(
            title: "A made dependency inside a factory, beside a top-level resolve (ns, p50 of 15 rounds)",
            header: ["dependency inside a factory", "top-level resolve", "ratio"],
            rows: [
                [
                    String(format: "%.1f ns", edge), String(format: "%.1f ns", median(topLevel)),
                    String(format: "%.2f×", edge / median(topLevel)),
                ]
            ])
    }

    /// `builds` cold builds of the 191-class graph with Weft (of the 2,000-class one if `large`
    /// and the harness was built with it), nothing else: what `perf record` profiles
    /// (containers are registered and released in between, as in the table's row).
    static func profile(builds: Int, large: Bool = false, handWritten: Bool = false, graphElsewhere: Bool = false) {
        #if LARGE_GRAPH
            if large { return profile(Graph2000.self, builds: builds) }
        #endif
        if handWritten { return profileHandWritten(Graph191.self, builds: builds) }
        // Another container of the process holds a `.graph` registration and has used it: this
        // container's builds must not pay for it (issue 56).
        let elsewhere = graphElsewhere ? GraphElsewhere.container() : nil
        profile(Graph191.self, builds: builds)
        blackHole(elsewhere)
    }

    /// The hand-written wiring's cold builds, each in ``buildHandWired(_:_:)``: what callgrind's
    /// `--toggle-collect` counts beside Weft's.
    private static func profileHandWritten<Graph: GeneratedGraph>(_ graph: Graph.Type, builds: Int) {
        let buildAll = Graph.HandWired.buildAll
        for _ in 0..<builds { buildHandWired(Graph.HandWired(), buildAll) }
    }

    @inline(never)
    static func buildHandWired<Wiring: HandWiredGraph>(_ wiring: Wiring, _ buildAll: [@Sendable (Wiring) -> AnyObject])
    {
        for build in buildAll { blackHole(build(wiring)) }
    }

    private static func profile<Graph: GeneratedGraph>(_ graph: Graph.Type, builds: Int) {
        let resolveAll = Graph.resolveAll
        for _ in 0..<builds {
            let container = Weft.Container()
            Graph.register(in: container)
            for resolve in resolveAll { blackHole(resolve(container)) }
        }
    }

    /// Wall-clock nanoseconds of one run of `body`, or the mean of `passes` runs.
    static func time(passes: Int = 1, _ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<passes { body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(passes)
    }

    /// Four tasks at once, each asking for every class in its own rotation of the order, as
    /// WeftColdStart's `cold-N-4-tasks` rows do (on 2 cores, at most two at a time).
    static func inFourTasks<Subject: Sendable, Built>(_ subject: Subject, _ order: [@Sendable (Subject) -> Built]) {
        DispatchQueue.concurrentPerform(iterations: 4) { task in
            let start = task * order.count / 4
            for index in order.indices { blackHole(order[(start + index) % order.count](subject)) }
        }
    }
}

/// A container holding a `.graph` registration, resolved once: what "a `.graph` registration
/// elsewhere in the process" means in `cold-191-Weft-graph-elsewhere` and
/// `coldstart-profile N graph-elsewhere`.
enum GraphElsewhere {
    final class PerResolution: Sendable {}

    static func container() -> Weft.Container {
        let container = Weft.Container()
        container.register(PerResolution.self, lifetime: .graph) { PerResolution() }
        _ = container.resolve(PerResolution.self)
        return container
    }
}
