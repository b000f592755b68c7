// Writes Sources/GraphFixtures/Graph191.swift and Graph2000.swift: layered dependency graphs
// in the shape of Coroneo's "A zero-cost dependency injection system?" (2024), which builds one
// such graph with several containers and by hand. Layer 0's classes depend on nothing; every
// class of a later layer depends on each class of the layer before with probability `density`,
// and on at least one. The draws come from a seeded SplitMix64, not the standard library's
// generator or `random(in:using:)`, whose algorithms may change between Swift versions: the
// same seed must give the same files on every toolchain.
//
// `swift run GraphGenerator` (in Tests/Benchmarks) rewrites both files and prints their counts;
// `swift run GraphGenerator search` looks for the seed that gives the small graph the paper's
// size, 191 classes and 1,783 edges (the seed below was found so).
import Foundation

/// Vigna's SplitMix64: a 64-bit state, advanced by a constant, then mixed.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number of `range`; the modulo's bias (under 2⁻⁵⁰ here) does not matter.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// `true` with probability `probability`: the top 53 bits as a fraction of 1.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1p-53 < probability
    }
}

/// What a graph is drawn from.
struct Shape {
    /// The prefix of its types' names (`G191` gives `G191N0`, …) and the figure in its enum's
    /// name (`Graph191`).
    var size: Int
    var seed: UInt64
    var layers: ClosedRange<Int>
    var width: ClosedRange<Int>
    var density: Double
}

/// A drawn graph: classes numbered 0 ..< count in layer order, so a class's dependencies have
/// lower numbers.
struct Graph {
    var shape: Shape
    /// The dependencies of each class.
    var dependencies: [[Int]]
    /// Every class once, shuffled: the order in which the benchmarks resolve them, so that a
    /// container meets a class's dependencies unbuilt as often as built.
    var order: [Int]

    var prefix: String { "G\(shape.size)" }
    var edgeCount: Int { dependencies.reduce(0) { $0 + $1.count } }

    init(_ shape: Shape) {
        self.shape = shape
        var random = SplitMix64(state: shape.seed)
        let widths = (0..<random.int(in: shape.layers)).map { _ in random.int(in: shape.width) }
        dependencies = []
        var previous: Range<Int> = 0..<0
        for width in widths {
            let layer = dependencies.count..<(dependencies.count + width)
            for _ in layer {
                var chosen = previous.filter { _ in random.chance(shape.density) }
                if chosen.isEmpty, !previous.isEmpty {
                    chosen = [previous.lowerBound + random.int(in: 0...(previous.count - 1))]
                }
                dependencies.append(chosen)
            }
            previous = layer
        }
        order = Array(dependencies.indices)
        for index in order.indices.reversed() where index > 0 {
            order.swapAt(index, random.int(in: 0...index))
        }
    }
}

/// The paper's graph, 10 to 15 layers of 10 to 15 classes: seed 12,413 is the first to give exactly its
/// 191 classes and 1,783 edges (`GraphGenerator search`).
let small = Shape(size: 191, seed: 12_413, layers: 10...15, width: 10...15, density: 0.8)
/// Ten times the paper's classes, 50 layers of 40, about 3 dependencies each. At density 0.25
/// (10 each, 19,554 edges, like the small graph's) a release build of the fixtures alone took
/// over 10 minutes on 2 cores: 72 s for the classes, 116 s more for the hand-written wiring,
/// and more than 5 minutes for Weft's 20,000 inlined `resolve` calls in the factories.
let large = Shape(size: 2_000, seed: 1, layers: 50...50, width: 40...40, density: 0.075)

/// `head(arguments)tail` as swift-format lays it out: on one line when it fits in 120 columns,
/// else `head(` and the arguments filled into lines one indent deeper, the last one followed by
/// `)tail` (`closer` puts `)tail` on a line of its own instead, as for a declaration).
func call(
    _ head: String, _ arguments: [String], indent: Int, tail: String = "", closer: Bool = false
) -> [String] {
    let pad = String(repeating: " ", count: indent)
    let single = pad + head + "(" + arguments.joined(separator: ", ") + ")" + tail
    if single.count <= 120 { return [single] }
    let inner = pad + "    "
    var lines = [pad + head + "("]
    var line = ""
    for (index, argument) in arguments.enumerated() {
        let isLast = index == arguments.count - 1
        let piece = argument + (isLast ? (closer ? "" : ")" + tail) : ",")
        if line.isEmpty {
            line = inner + piece
        } else if line.count + 1 + piece.count <= 120 {
            line += " " + piece
        } else {
            lines.append(line)
            line = inner + piece
        }
    }
    lines.append(line)
    if closer { lines.append(pad + ")" + tail) }
    return lines
}

/// How many statements or elements go in one function or array literal: the optimizer's time
/// grows faster than a function's length, and one function of 2,000 registrations, or one
/// literal of 2,000 closures, took the release build of GraphFixtures past 15 minutes.
let partSize = 100

/// `lines` in runs of `partSize`.
func inChunks(_ lines: [String]) -> [ArraySlice<String>] {
    stride(from: 0, to: lines.count, by: partSize).map { lines[$0..<min($0 + partSize, lines.count)] }
}

/// `public static func name(parameter)` running `statements` through `@inline(never)` parts
/// (`namePart0`, …) of `partSize` statements each.
func inParts(_ name: String, parameter: String, argument: String, _ statements: [String]) -> [String] {
    let parts = inChunks(statements)
    var out = ["    public static func \(name)(\(parameter)) {"]
    out += parts.indices.map { "        \(name)Part\($0)(\(argument))" }
    out += ["    }", ""]
    for (index, part) in parts.enumerated() {
        out.append("    @inline(never) static func \(name)Part\(index)(\(parameter)) {")
        out += part.map { "        " + $0 }
        out += ["    }", ""]
    }
    return out
}

/// `public static let name: type`, the concatenation of literals (`namePart0`, …) of
/// `partSize` elements each.
func listInParts(_ name: String, type: String, _ elements: [String]) -> [String] {
    let parts = inChunks(elements)
    var out = ["    public static let \(name): \(type) = ["]
    out += parts.indices.map { "        \(name)Part\($0)," }
    out += ["    ].flatMap { $0 }", ""]
    for (index, part) in parts.enumerated() {
        out.append("    static let \(name)Part\(index): \(type) = [")
        out += part.map { "        \($0)," }
        out += ["    ]", ""]
    }
    return out
}

/// `1_783` for 1783, as swift-format's GroupNumericLiterals wants.
func grouped(_ number: Int) -> String {
    var digits = String(number)
    var result = ""
    while digits.count > 3 {
        result = "_" + digits.suffix(3) + result
        digits.removeLast(3)
    }
    return digits + result
}

func source(_ graph: Graph, swinject: Bool) -> String {
    let p = graph.prefix
    let name = "Graph\(graph.shape.size)"
    let count = graph.dependencies.count
    func type(_ index: Int) -> String { "\(p)N\(index)" }
    var out: [String] = []
    let shape = graph.shape
    out += [
        "// Generated by GraphGenerator (Sources/GraphGenerator/main.swift): do not edit. To regenerate, run",
        "// `swift run GraphGenerator` in Tests/Benchmarks.",
        "//",
        "// \(count) classes, \(graph.edgeCount) edges: seed \(shape.seed), \(shape.layers) layers of "
            + "\(shape.width) classes, density \(shape.density).",
        "//",
        "// It is written in swift-format's layout, but not linted: linting the 2,000 graph takes minutes.",
        "// swift-format-ignore-file",
        "",
    ]
    out += (swinject ? ["Swinject"] : []).map { "import \($0)" }
    out += (graph.shape.size > 1_000 ? ["GraphFixtures"] : []).map { "import \($0)" }
    out += ["import Synchronization", "import Weft", ""]

    // The classes: each stores its dependencies, as a real service does.
    for (index, dependencies) in graph.dependencies.enumerated() {
        out.append("public final class \(type(index)): Sendable {")
        if dependencies.isEmpty {
            out.append("    public init() {}")
        } else {
            for (position, dependency) in dependencies.enumerated() {
                out.append("    let d\(position): \(type(dependency))")
            }
            out.append("")
            let parameters = dependencies.enumerated().map { "_ d\($0): \(type($1))" }
            out += call("public init", parameters, indent: 4, tail: " {", closer: true)
            for position in dependencies.indices { out.append("        self.d\(position) = d\(position)") }
            out.append("    }")
        }
        out.append("}")
        out.append("")
    }

    // Weft, and the dictionary floor with the same factories.
    out += [
        "public enum \(name): GeneratedGraph {",
        "    public typealias HandWired = \(name)HandWired",
        "    public typealias HandWiredLocked = \(name)HandWiredLocked",
        "",
        "    public static let classCount = \(grouped(count))",
        "    public static let edgeCount = \(grouped(graph.edgeCount))",
        "",
    ]
    for (index, dependencies) in graph.dependencies.enumerated() {
        out.append("    static func make\(index)(_ r: Weft.Resolver) throws -> \(type(index)) {")
        let arguments = dependencies.map { "try r.resolve(\(type($0)).self)" }
        out += call(type(index), arguments, indent: 8)
        out.append("    }")
        out.append("")
    }
    out += inParts(
        "register", parameter: "in container: Weft.Container", argument: "in: container",
        (0..<count).map { "container.register(\(type($0)).self, lifetime: .singleton, factory: make\($0))" })
    out += inParts(
        "register", parameter: "in table: inout FactoryTable", argument: "in: &table",
        (0..<count).map { "table[ObjectIdentifier(\(type($0)).self)] = { try make\($0)($0) }" })
    out += listInParts(
        "resolveAll", type: "[@Sendable (Weft.Container) -> AnyObject?]",
        graph.order.map { "{ try? $0.require(\(type($0)).self) }" })
    out += ["}", ""]

    // The hand-written wiring, single-threaded and locked. Each keeps its instances in one
    // buffer, slot `n` for class `n`, rather than in a stored property per class: as fast to
    // read, and a class of 2,000 stored properties (its initializer and deinitializer) cost the
    // release build minutes.
    for locked in [false, true] {
        let wiring = name + (locked ? "HandWiredLocked" : "HandWired")
        out.append("public final class \(wiring): HandWiredGraph\(locked ? ", Sendable" : "") {")
        if locked {
            out += [
                "    /// One lock per class, held while it is built: a DAG takes them in one order.",
                "    private let slots: [Slot]",
                "",
                "    public init() { slots = (0..<\(grouped(count))).map { _ in Slot() } }",
                "",
            ]
        } else {
            out += [
                "    private let made = UnsafeMutablePointer<AnyObject?>.allocate(capacity: \(grouped(count)))",
                "",
                "    public init() { made.initialize(repeating: nil, count: \(grouped(count))) }",
                "",
                "    deinit {",
                "        made.deinitialize(count: \(grouped(count)))",
                "        made.deallocate()",
                "    }",
                "",
            ]
        }
        for (index, dependencies) in graph.dependencies.enumerated() {
            let arguments = dependencies.map { "n\($0)()" }
            out.append("    public func n\(index)() -> \(type(index)) {")
            if locked {
                out.append("        slots[\(index)].object.withLock { (value: inout AnyObject?) -> \(type(index)) in")
                out.append("            if let value { return unsafeDowncast(value, to: \(type(index)).self) }")
                out += call("let built = \(type(index))", arguments, indent: 12)
                out.append("            value = built")
                out.append("            return built")
                out.append("        }")
            } else {
                out.append(
                    "        if let value = made[\(index)] { return unsafeDowncast(value, to: \(type(index)).self) }")
                out += call("let built = \(type(index))", arguments, indent: 8)
                out.append("        made[\(index)] = built")
                out.append("        return built")
            }
            out.append("    }")
            out.append("")
        }
        out += listInParts(
            "buildAll", type: "[@Sendable (\(wiring)) -> AnyObject]", graph.order.map { "{ $0.n\($0)() }" })
        out += ["}", ""]
    }

    // Swinject, for comparison.
    if swinject {
        out += ["extension \(name) {", "    public static func register(in container: Swinject.Container) {"]
        for (index, dependencies) in graph.dependencies.enumerated() {
            let arguments = dependencies.map { "r.resolve(\(type($0)).self)!" }
            out.append("        container.register(\(type(index)).self) { r in")
            out += call(type(index), arguments, indent: 12)
            out.append("        }.inObjectScope(.container)")
        }
        out += ["    }", ""]
        out.append("    public static let swinjectResolveAll: [@Sendable (Swinject.Container) -> AnyObject?] = [")
        for index in graph.order { out.append("        { $0.resolve(\(type(index)).self) },") }
        out += ["    ]", "}", ""]
    }
    out.removeLast()  // one newline at the end, not a blank line
    return out.joined(separator: "\n") + "\n"
}

let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

if CommandLine.arguments.dropFirst().first == "search" {
    // The seed whose small graph has 191 classes and the edge count nearest 1,783.
    var best: (seed: UInt64, edges: Int)?
    for seed in UInt64(0)..<20_000 {
        var shape = small
        shape.seed = seed
        let graph = Graph(shape)
        guard graph.dependencies.count == 191 else { continue }
        if best.map({ abs(graph.edgeCount - 1_783) < abs($0.edges - 1_783) }) ?? true {
            best = (seed, graph.edgeCount)
            print("seed \(seed): 191 classes, \(graph.edgeCount) edges")
        }
    }
} else {
    // The small graph is checked in; the large one is written only when asked for (`large`),
    // into a target the package declares only with WEFT_LARGE_GRAPH=1 (see `large-graph`).
    let shapes = CommandLine.arguments.dropFirst().first == "large" ? [(large, false)] : [(small, true)]
    for (shape, swinject) in shapes {
        let graph = Graph(shape)
        let folder = sources.appendingPathComponent(shape.size > 1_000 ? "LargeGraphFixtures" : "GraphFixtures")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Graph\(shape.size).swift")
        do {
            try source(graph, swinject: swinject).write(to: file, atomically: true, encoding: .utf8)
        } catch {
            print("could not write \(file.path): \(error)")
            exit(1)
        }
        print("\(file.lastPathComponent): \(graph.dependencies.count) classes, \(graph.edgeCount) edges")
    }
}
