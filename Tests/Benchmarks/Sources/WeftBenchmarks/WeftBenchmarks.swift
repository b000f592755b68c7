import Foundation

/// The Weft package, two folders above the benchmark package.
let rootPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // Tests/Benchmarks
    .deletingLastPathComponent().deletingLastPathComponent()

@main
struct WeftBenchmarks {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let which = Set(arguments)
        print("Weft benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores, release build")
        if which.isEmpty || which.contains("container") { await ContainerBenchmarks.run() }
        if which.isEmpty || which.contains("initializer") { await InitializerBenchmarks.run() }
        if which.isEmpty || which.contains("isolation") { await IsolationBenchmarks.run() }
        if which.isEmpty || which.contains("frames") { FrameSchemeBenchmarks.run() }
        if which.isEmpty || which.contains("scaling") {
            SnapshotBaselineBenchmarks.run()
            ScalingBenchmarks.run()
        }
        if arguments.first == "registrations" {
            // Only on request, and not `container --profile registrations`: `registrations [count] [rounds]`.
            let numbers = arguments.dropFirst().prefix(2).compactMap { Int($0) }
            RegistrationBenchmarks.run(count: numbers.first ?? 1_000, rounds: numbers.dropFirst().first ?? 200)
        }
        if arguments.first == "startup-plan" {
            // Only on request: `startup-plan [seed]` (1 unless given).
            await StartupPlanBenchmarks.run(seed: arguments.dropFirst().first.flatMap { UInt64($0) } ?? 1)
        }
        if arguments.first == "register-once", arguments.count == 3, let count = Int(arguments[2]) {
            // One container of `count` names and nothing else, for counting calls per registration
            // (`perf stat` with uprobes on swift_retain, malloc, …): `register-once weft|floor|dictionary count`.
            RegistrationBenchmarks.once(arguments[1], count: count)
        }
        if arguments.first == "steps", arguments.count == 4, let count = Int(arguments[2]),
            let rounds = Int(arguments[3])
        {
            // Runs of one initializer and nothing else, for `perf`: `steps async|sync|floor count rounds`.
            await InitializerBenchmarks.repeatRuns(arguments[1], count: count, rounds: rounds)
        }
        if arguments.first == "coldstart-profile" {
            // `coldstart-profile [builds] [large|hand|graph-elsewhere]`: cold builds of the
            // 191-class graph only (the 2,000-class one with `large`, in a build of
            // Tests/Benchmarks/large-graph; the hand-written wiring's with `hand`; with another
            // container's `.graph` registration in the process with `graph-elsewhere`), for
            // `perf record` and callgrind.
            let builds = arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000
            ColdStartBenchmarks.profile(
                builds: builds, large: arguments.dropFirst(2).first == "large",
                handWritten: arguments.dropFirst(2).first == "hand",
                graphElsewhere: arguments.dropFirst(2).first == "graph-elsewhere")
            return
        }
        if which.isEmpty || arguments.first == "edges" {
            // `edges`: a made dependency resolved inside a factory, beside a top-level resolve.
            ColdStartBenchmarks.edges()
        }
        if which.isEmpty || arguments.first == "coldstart" {
            // `coldstart [rounds]` (15 unless given): the generated graphs, Weft beside hand-written wiring.
            ColdStartBenchmarks.run(rounds: arguments.dropFirst().first.flatMap { Int($0) } ?? 15)
        }
        if which.isEmpty || which.contains("wait") {
            // The weft binary: the argument after `wait`, else the root package's release build.
            let given = arguments.firstIndex(of: "wait").flatMap {
                arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
            }
            await WaitBenchmarks.run(weft: given ?? rootPackage.appendingPathComponent(".build/release/weft").path)
        }
    }
}
