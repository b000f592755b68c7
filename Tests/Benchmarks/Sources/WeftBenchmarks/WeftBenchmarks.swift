import Foundation

@main
struct WeftBenchmarks {
    static func main() async {
        let which = Set(CommandLine.arguments.dropFirst())
        print("Weft benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores, release build")
        if which.isEmpty || which.contains("container") { await ContainerBenchmarks.run() }
        if which.isEmpty || which.contains("initializer") { await InitializerBenchmarks.run() }
        if which.isEmpty || which.contains("frames") { FrameSchemeBenchmarks.run() }
        if which.isEmpty || which.contains("scaling") {
            SnapshotBaselineBenchmarks.run()
            ScalingBenchmarks.run()
        }
    }
}
