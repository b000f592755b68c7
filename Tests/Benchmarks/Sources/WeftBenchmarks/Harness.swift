import Foundation

/// Median nanoseconds per operation over `rounds` rounds of `iterations` calls of `body`.
func measure(rounds: Int = 15, iterations: Int, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    samples.reserveCapacity(rounds)
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        let end = DispatchTime.now().uptimeNanoseconds
        samples.append(Double(end - start) / Double(iterations))
    }
    return samples.sorted()[samples.count / 2]
}

/// The fastest result of each body over `repetitions` rounds that run every body in turn, so
/// that a slow spell of this shared machine hits every body alike.
func fastestInTurns(repetitions: Int = 9, _ bodies: [() -> Double]) -> [Double] {
    var fastest = Array(repeating: Double.infinity, count: bodies.count)
    for _ in 0..<repetitions {
        for (index, body) in bodies.enumerated() { fastest[index] = min(fastest[index], body()) }
    }
    return fastest
}

/// Wall-clock nanoseconds to build a value, and to drop it again, timed apart.
func measureBuildAndTeardown<T>(_ build: () -> T) -> (build: Double, teardown: Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    var built: T? = build()
    let middle = DispatchTime.now().uptimeNanoseconds
    blackHole(built)
    let beforeDrop = DispatchTime.now().uptimeNanoseconds
    built = nil
    let end = DispatchTime.now().uptimeNanoseconds
    blackHole(built)
    return (Double(middle - start), Double(end - beforeDrop))
}

/// Median wall-clock nanoseconds of `rounds` runs of an async `body`.
func measureAsync(rounds: Int = 15, _ body: () async -> Void) async -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        await body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    return samples.sorted()[samples.count / 2]
}

/// Keeps the optimizer from deleting a benchmarked value (opaque to it: not inlined, not optimized).
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func formatNanoseconds(_ ns: Double) -> String {
    switch ns {
    case ..<1_000: String(format: "%.0f ns", ns)
    case ..<1_000_000: String(format: "%.2f µs", ns / 1_000)
    default: String(format: "%.2f ms", ns / 1_000_000)
    }
}

func printTable(title: String, header: [String], rows: [[String]]) {
    let widths = header.indices.map { column in
        ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String]) -> String {
        "| "
            + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            .joined(separator: " | ") + " |"
    }
    print("\n### \(title)\n")
    print(line(header))
    print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    rows.forEach { print(line($0)) }
}
