// swift-tools-version: 6.2
// A separate package so library users never fetch benchmark dependencies; it lives in
// Tests/Benchmarks and depends on the Weft package two folders up.
//
// Benchmarks/ holds the package-benchmark suites (`swift package benchmark`): wall time
// percentiles, mallocs and retains per operation, thresholds in Thresholds/. WeftBenchmarks is
// the hand-written harness for the studies package-benchmark does not fit (side-by-side tables
// of repeated runs, the app under a silent server, heap bytes per registration).
import Foundation
import PackageDescription

/// With WEFT_LARGE_GRAPH=1, the 2,000-class graph too (`large-graph` sets it): generated on
/// demand, not checked in, and left out of `scripts/test`, since compiling its 2,000 classes,
/// registrations and wirings takes the release build past ten minutes on 2 cores.
let largeGraph = ProcessInfo.processInfo.environment["WEFT_LARGE_GRAPH"] == "1"
let largeGraphTargets: [Target.Dependency] = largeGraph ? ["LargeGraphFixtures"] : []
let largeGraphSettings: [SwiftSetting] = largeGraph ? [.define("LARGE_GRAPH")] : []

/// A path dependency's identity is its folder's name, which differs between clones.
let weftRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Tests/Benchmarks
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the Weft package
let weftPackage = weftRoot.lastPathComponent

let package = Package(
    name: "WeftBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../..", traits: []),  // Weft and WeftInitializer only
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        // Malloc counts come from its malloc interposer (Swift 6.3+).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The services the benchmarks resolve, and the floor they are measured against.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "Atomics", package: "swift-atomics"), .product(name: "Weft", package: weftPackage),
            ]
        ),
        // Generated dependency graphs, each registered in Weft and wired by hand: GraphGenerator
        // writes them (`swift run GraphGenerator`, and `large` for the 2,000-class one).
        .executableTarget(name: "GraphGenerator"),
        .target(
            name: "GraphFixtures",
            dependencies: [
                .product(name: "Weft", package: weftPackage), .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        .executableTarget(
            name: "WeftResolution",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Weft", package: weftPackage),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Benchmarks/WeftResolution",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "WeftInitializerRuns",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WeftInitializer", package: weftPackage),
            ],
            path: "Benchmarks/WeftInitializerRuns",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "WeftColdStart",
            dependencies: [
                "GraphFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Weft", package: weftPackage),
                .product(name: "Swinject", package: "Swinject"),
            ] + largeGraphTargets,
            path: "Benchmarks/WeftColdStart",
            swiftSettings: largeGraphSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "WeftModules",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Weft", package: weftPackage),
            ],
            path: "Benchmarks/WeftModules",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // glibc's heap statistics, for the bytes each registration keeps.
        .target(name: "CHeap"),
        .executableTarget(
            name: "WeftBenchmarks",
            dependencies: [
                .product(name: "Weft", package: weftPackage),
                .product(name: "WeftInitializer", package: weftPackage),
                .product(name: "WeftStartup", package: weftPackage),
                .product(name: "Swinject", package: "Swinject"),
                "BenchmarkFixtures",
                "CHeap",
                "GraphFixtures",
            ] + largeGraphTargets,
            swiftSettings: [.unsafeFlags(["-Ounchecked"])] + largeGraphSettings
        ),
    ] + (largeGraph ? [.target(name: "LargeGraphFixtures", dependencies: ["GraphFixtures"])] : [])
)
