// swift-tools-version: 6.2
import PackageDescription

// Two audiences share this package. Library users name `Weft` and `WeftInitializer` (and in
// their tests `WeftTesting`), with or without `traits:`, and resolve only the light API packages
// those need (swift-atomics, swift-log, swift-distributed-tracing, swift-metrics): no trait is on
// by default. The `ServiceLifecycle` trait adds `WeftServiceLifecycle`'s dependency; `App` adds
// what the `weft` app, its domain and its tests need, and the scripts turn it on
// (`swift build --traits App`, README "Build the app by hand").

/// A product that only the app, its domain and their tests use.
func app(_ product: String, in package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["App"]))
}

/// A product that only `WeftServiceLifecycle` (and the app, which enables it) uses.
func lifecycle(_ product: String) -> Target.Dependency {
    .product(name: product, package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycle"]))
}

let package = Package(
    name: "Weft",
    // The floors the code needs: `Duration` and `Clock` in the public API (macOS 13, iOS 16) and
    // the start-up graph's `withDiscardingTaskGroup` (macOS 14, iOS 17, tvOS 17, watchOS 10).
    // Linux, Android, Windows, WASI and musl have none. scripts/check-portability holds the code
    // to these floors.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Weft", targets: ["Weft"]),
        .library(name: "WeftInitializer", targets: ["WeftInitializer"]),
        .library(name: "WeftServiceLifecycle", targets: ["WeftServiceLifecycle"]),
        .library(name: "WeftStartup", targets: ["WeftStartup"]),
        .library(name: "WeftTesting", targets: ["WeftTesting"]),
        .executable(name: "weft", targets: ["weft"]),
    ],
    traits: [
        .trait(
            name: "ServiceLifecycle",
            description:
                "WeftServiceLifecycle: start-up and the container inside a swift-service-lifecycle ServiceGroup."
        ),
        .trait(
            name: "App",
            description:
                "The weft app, its domain and its tests (SwiftNIO, AsyncHTTPClient, Hummingbird, GRDB, Prometheus).",
            enabledTraits: ["ServiceLifecycle"]
        ),
        // A package that names Weft and no traits (Xcode's package dialog writes none) gets the
        // light path: the app's stack only where it is asked for.
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Tested versions. The first four are all that `Weft` and `WeftInitializer` need.
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // An API package without dependencies: start-up metrics (WeftInitializer).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The `ServiceLifecycle` trait.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The `App` trait.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // No default traits: weft needs neither swift-configuration nor Foundation's form coding.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // MARK: Libraries
        .target(
            name: "Weft",
            dependencies: [
                "WeftPrimitives",
                "CWeftThreadFrame",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // A page for reviewers: how a resolve reaches a cached value, and which file fences what.
            exclude: ["Resolution/README.md"]
        ),
        // The one C thread-local the resolution path needs (Swift has no thread-local storage).
        .target(name: "CWeftThreadFrame"),
        // Not a product: the primitives every target of this package shares (`package` access),
        // each with a branch per platform: the lock, the thread-local slot, the edit distance,
        // the hash mix, `Duration` arithmetic. The libraries import the C library here alone
        // (scripts/check-portability).
        .target(name: "WeftPrimitives"),
        .target(
            name: "WeftInitializer",
            dependencies: [
                "WeftPrimitives",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),

        // Where the two libraries meet: start-up steps planned from the container's graph. Its own
        // product, so that `Weft` and `WeftInitializer` stay usable alone; it adds no package.
        .target(name: "WeftStartup", dependencies: ["Weft", "WeftInitializer"]),

        // Server apps: start-up, services, disposal (swift-service-lifecycle stays out of the two above).
        .target(
            name: "WeftServiceLifecycle",
            dependencies: [
                "Weft",
                "WeftInitializer",
                lifecycle("ServiceLifecycle"),
                lifecycle("UnixSignals"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // For users' test targets: a manual clock, an isolated shared container per test, and
        // `validate()` as an expectation. Swift Testing ships with the toolchain: no dependency.
        .target(name: "WeftTesting", dependencies: ["Weft", "WeftInitializer", "WeftPrimitives"]),

        // MARK: Domain
        // Assets/ embedded into the module (no resource bundle to find at run time): the data
        // files listed here, as Assets/EmbeddedAssets.swift, which scripts/embed-assets writes and
        // scripts/test checks. Not a build-tool plugin: SwiftPM's native build system would build
        // it, and its tool, for every package that depends on this one.
        .target(
            name: "WeftAssets",
            path: "Assets",
            exclude: ["environments.json", "facts.json", "logo-ascii.txt", "logo.txt", "startup-budget.json"]
        ),
        .target(
            name: "FactKit",
            dependencies: [
                "WeftAssets",
                "WeftPrimitives",
                app("GRDB", in: "GRDB.swift"),
                app("AsyncHTTPClient", in: "async-http-client"),
                app("Hummingbird", in: "hummingbird"),
                app("HummingbirdCore", in: "hummingbird"),
                app("NIOCore", in: "swift-nio"),
                app("NIOPosix", in: "swift-nio"),
                app("NIOHTTP1", in: "swift-nio"),
                app("HTTPTypes", in: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                lifecycle("ServiceLifecycle"),
            ]
        ),

        // MARK: App
        .target(
            name: "WeftApp",
            dependencies: [
                "FactKit", "Weft", "WeftInitializer", "WeftServiceLifecycle", "WeftStartup", "WeftPrimitives",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                app("Prometheus", in: "swift-prometheus"),
                app("NIOConcurrencyHelpers", in: "swift-nio"),
                lifecycle("ServiceLifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(name: "CNCursesShims", dependencies: ["CNCurses"]),
        // The ncurses adapter alone, so scripts/test can build and drive it under
        // AddressSanitizer without building the rest.
        .target(name: "WeftTerminal", dependencies: ["CNCurses", "CNCursesShims"]),
        .target(
            name: "WeftTUI",
            dependencies: [
                "WeftApp", "FactKit", "Weft", "WeftInitializer", "WeftAssets", "WeftTerminal", "WeftPrimitives",
            ]
        ),
        .executableTarget(
            name: "weft",
            dependencies: [
                "WeftApp",
                "WeftTUI",
                app("ArgumentParser", in: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "WeftPrimitivesTests", dependencies: ["WeftPrimitives"]),
        .testTarget(
            name: "WeftTests",
            // WeftTesting: the ManualClock that drives shutdown deadlines.
            dependencies: [
                "Weft", "WeftPrimitives", "WeftTesting", "WeftTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WeftInitializerTests",
            dependencies: [
                "WeftInitializer",
                "WeftPrimitives",
                "WeftTestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "WeftServiceLifecycleTests",
            dependencies: [
                "WeftServiceLifecycle", "Weft", "WeftInitializer", "WeftTesting",
                lifecycle("ServiceLifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "WeftTestingTests", dependencies: ["WeftTesting", "Weft", "WeftInitializer"]),
        .testTarget(
            name: "WeftStartupTests",
            dependencies: [
                "WeftStartup", "Weft", "WeftInitializer", "WeftPrimitives", "WeftTesting", "WeftTestSupport",
            ]),
        // What several test targets share: captured logs, temporary directories, the seeded
        // generator of the property tests. Light: the libraries' tests build it too.
        .target(
            name: "WeftTestSupport",
            dependencies: [
                "WeftInitializer", "WeftPrimitives",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/WeftTestSupport"
        ),
        .testTarget(
            name: "FactKitTests",
            dependencies: [
                "WeftTestSupport",
                "FactKit",
                // ManualClock: the timeouts under test run on a clock the test moves.
                "WeftTesting",
                "WeftAssets",
                app("GRDB", in: "GRDB.swift"),
                app("AsyncHTTPClient", in: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                app("NIOCore", in: "swift-nio"),
                app("NIOEmbedded", in: "swift-nio"),
                app("NIOHTTP1", in: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "WeftAppTests",
            dependencies: [
                "WeftTestSupport",
                "WeftApp", "FactKit", "Weft", "WeftInitializer", "WeftTesting",
                app("AsyncHTTPClient", in: "async-http-client"),
                app("NIOConcurrencyHelpers", in: "swift-nio"),
                app("GRDB", in: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                app("NIOCore", in: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "WeftTUITests",
            dependencies: [
                "WeftTUI", "WeftTerminal", "WeftApp", "FactKit", "Weft", "WeftInitializer", "WeftTesting",
                "WeftTestSupport",
            ]
        ),
        // Drives the ncurses adapter off-screen; scripts/test runs it under AddressSanitizer.
        .executableTarget(name: "WeftTerminalCheck", dependencies: ["WeftTerminal"], path: "Tests/WeftTerminalCheck"),

        // MARK: Fuzzing (Tests/Fuzz/README.md)
        // One libFuzzer target per parser of untrusted input, in one binary; scripts/fuzz builds
        // it with coverage, AddressSanitizer and libFuzzer (a plain build replays inputs).
        .target(name: "CFuzzerDriver", path: "Tests/Fuzz/CFuzzerDriver"),
        .executableTarget(
            name: "WeftFuzz",
            dependencies: [
                "CFuzzerDriver", "FactKit", "WeftApp", "WeftInitializer", "WeftTerminal",
                app("AsyncHTTPClient", in: "async-http-client"),
                app("Hummingbird", in: "hummingbird"),
                app("HummingbirdCore", in: "hummingbird"),
                app("HTTPTypes", in: "swift-http-types"),
                app("NIOCore", in: "swift-nio"),
                app("NIOEmbedded", in: "swift-nio"),
                app("NIOHTTP1", in: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Fuzz/Sources/WeftFuzz"
        ),
    ]
)

// WEFT_LIBRARIES_ONLY=1 leaves the app, its domain, its tests and the fuzz targets out of the
// package, for work on the libraries alone: `WEFT_LIBRARIES_ONLY=1 swift test --traits
// ServiceLifecycle` builds the light stack and runs the libraries' suites, in a minute or two
// rather than the app's stack's ten (CONTRIBUTING.md). A user's build never sets it.
if Context.environment["WEFT_LIBRARIES_ONLY"] == "1" {
    let libraries: Set = [
        "Weft", "CWeftThreadFrame", "WeftPrimitives", "WeftInitializer", "WeftServiceLifecycle", "WeftTesting",
        "WeftStartup", "WeftPrimitivesTests", "WeftTests", "WeftInitializerTests", "WeftServiceLifecycleTests",
        "WeftTestingTests", "WeftStartupTests", "WeftTestSupport",
    ]
    package.targets.removeAll { !libraries.contains($0.name) }
    package.products.removeAll { product in product.name == "weft" }
}

// One set of Swift settings for every target of ours: Swift 6 language mode is the tools
// version's default; imports are internal unless marked `public`, and a file sees only the
// members of modules it imports itself.
//
// A warning fails the build only where WEFT_WARNINGS_AS_ERRORS=1 (scripts/test and CI set it):
// Xcode and SwiftPM's new build system build a dependency with `-suppress-warnings`, which the
// compiler refuses beside `-warnings-as-errors`, so an unconditional setting here would break
// every user's build (SwiftPM #9517, swift-build #1512).
//
// WEFT_INTERNAL_CHECKS=1 (scripts/test sets it, and unsets it for the benchmarks) compiles in
// the invariant checks of the unsafe code (Sources/Weft/Resolution/README.md): a user's build,
// and a release build of ours, never has them.
let upcomingFeatures = ["MemberImportVisibility", "InternalImportsByDefault"]
let warningsAreErrors = Context.environment["WEFT_WARNINGS_AS_ERRORS"] == "1"
let internalChecks = Context.environment["WEFT_INTERNAL_CHECKS"] == "1"
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? [])
        + upcomingFeatures.map { .enableUpcomingFeature($0) }
        + (warningsAreErrors ? [.treatAllWarnings(as: .error)] : [])
        + (internalChecks ? [.define("WEFT_INTERNAL_CHECKS")] : [])
}
