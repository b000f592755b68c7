import BenchmarkFixtures
import Foundation
import Weft

/// How Weft's cost grows with the work: a chain of D transients (ns per node), and root services
/// resolved from a scope K deep. Flat is the goal.
///
/// Every size is measured in each of 9 repetitions, in turn, on containers built afresh for
/// each repetition, and each size keeps its fastest. This machine has episodes of a second or
/// two in which every resolve is slower, and some containers are slower than their twins for
/// as long as they live (the same transient resolve took 84 or 153 ns depending on the
/// container; see Tests/Benchmarks/README.md): a median of one container's rounds took either
/// for growth.
enum ScalingBenchmarks {
    static func run() {
        let depths = [1, 10, 100, 1_000]
        let perNode = fastestInTurns(
            depths.map { depth in
                {
                    let container = weftChain(depth)
                    return measure(rounds: 5, iterations: max(1, 20_000 / depth)) {
                        blackHole(try? container.require(ChainNode.self, name: "n0"))
                    } / Double(depth)
                }
            })
        let rows = zip(depths, perNode).map { depth, cost in
            ["\(depth)", formatNanoseconds(cost), String(format: "%.2f×", cost / perNode[0])]
        }
        printTable(
            title: "Scaling: a chain of D transients (ns per node; fastest of 9, fresh containers, sizes in turn)",
            header: ["D", "per node", "÷ D=1"], rows: rows
        )
        scopeDepth()
    }

    final class Shared: Sendable {}
    struct Fresh: Sendable {}

    /// A root singleton and a root transient, resolved from a scope K deep.
    static func scopeDepth() {
        let root = Container()
        root.register(Shared.self, lifetime: .singleton) { Shared() }
        root.register(Fresh.self) { Fresh() }
        let depths = [0, 1, 8, 64]
        func scope(_ depth: Int) -> Container {
            var scope = root
            for _ in 0..<depth { scope = scope.createScope() }
            return scope
        }
        let times = fastestInTurns(
            depths.flatMap { depth in
                [
                    {
                        let container = scope(depth)
                        return measure(rounds: 5, iterations: 200_000) {
                            blackHole(try? container.require(Shared.self))
                        }
                    },
                    {
                        let container = scope(depth)
                        return measure(rounds: 5, iterations: 200_000) { blackHole(try? container.require(Fresh.self)) }
                    },
                ]
            })
        let rows = depths.indices.map { index in
            let (singleton, transient) = (times[2 * index], times[2 * index + 1])
            return [
                depths[index] == 0 ? "root" : "\(depths[index])",
                formatNanoseconds(singleton), String(format: "%.2f×", singleton / times[0]),
                formatNanoseconds(transient), String(format: "%.2f×", transient / times[1]),
            ]
        }
        printTable(
            title: "Scaling: root services resolved from a scope K deep (fastest of 9, fresh scopes, depths in turn)",
            header: ["K", "singleton", "÷ root", "transient", "÷ root"], rows: rows
        )
    }
}
