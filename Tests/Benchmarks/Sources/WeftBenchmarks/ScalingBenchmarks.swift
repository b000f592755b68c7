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
    }
}
