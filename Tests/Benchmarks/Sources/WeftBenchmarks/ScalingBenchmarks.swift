import Foundation
import Weft

/// How Weft's cost grows with the work: a chain of D transients (ns per node). Flat is the goal:
/// the cycle check walks the whole path only while it is shallow.
enum ScalingBenchmarks {
    struct Node: Sendable { let depth: Int }

    static func run() {
        var rows: [[String]] = []
        var perNodeAtOne = 0.0
        for depth in [1, 10, 100, 1_000] {
            let container = Container()
            for level in 0..<depth {
                let next = "n\(level + 1)"
                let isLast = level + 1 == depth
                container.register(Node.self, name: "n\(level)") { r in
                    isLast ? Node(depth: 1) : Node(depth: try r.resolve(Node.self, name: next).depth + 1)
                }
            }
            let perResolve = measure(rounds: 21, iterations: max(1, 20_000 / depth)) {
                blackHole(try? container.require(Node.self, name: "n0"))
            }
            let perNode = perResolve / Double(depth)
            if depth == 1 { perNodeAtOne = perNode }
            rows.append(["\(depth)", formatNanoseconds(perNode), String(format: "%.2f×", perNode / perNodeAtOne)])
        }
        printTable(
            title: "Scaling: a chain of D transients (median of 21 rounds, ns per node)",
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
        var rows: [[String]] = []
        var base: (Double, Double) = (1, 1)
        for depth in [0, 1, 8, 64] {
            var scope = root
            for _ in 0..<depth { scope = scope.createScope() }
            let container = scope
            let singleton = measure(rounds: 21, iterations: 200_000) { blackHole(try? container.require(Shared.self)) }
            let transient = measure(rounds: 21, iterations: 200_000) { blackHole(try? container.require(Fresh.self)) }
            if depth == 0 { base = (singleton, transient) }
            rows.append([
                depth == 0 ? "root" : "\(depth)",
                formatNanoseconds(singleton), String(format: "%.2f×", singleton / base.0),
                formatNanoseconds(transient), String(format: "%.2f×", transient / base.1),
            ])
        }
        printTable(
            title: "Scaling: root services resolved from a scope K deep (median of 21 rounds)",
            header: ["K", "singleton", "÷ root", "transient", "÷ root"], rows: rows
        )
    }
}
