// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Weft",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Weft", targets: ["Weft"]),
        .library(name: "WeftInitializer", targets: ["WeftInitializer"]),
        .library(name: "WeftServiceLifecycle", targets: ["WeftServiceLifecycle"]),
        .executable(name: "weft", targets: ["weft"]),
    ],
    dependencies: [
        // Tested versions.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // No default traits: weft needs neither swift-configuration nor Foundation's form coding.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // MARK: Libraries
        .target(
            name: "Weft",
            dependencies: [
                "CWeftThreadFrame",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The one C thread-local the resolution path needs (Swift has no thread-local storage).
        .target(name: "CWeftThreadFrame"),
        .target(
            name: "WeftInitializer",
            dependencies: [
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),

        // Server apps: start-up, services, disposal (swift-service-lifecycle stays out of the two above).
        .target(
            name: "WeftServiceLifecycle",
            dependencies: [
                "Weft",
                "WeftInitializer",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Domain
        // Assets/ embedded into the module at build time (no resource bundle to find at run
        // time): the EmbedAssets plugin generates Swift from every data file listed here.
        .target(
            name: "WeftAssets",
            path: "Assets",
            exclude: ["environments.json", "facts.json", "logo-ascii.txt", "logo.txt"],
            plugins: ["EmbedAssets"]
        ),
        .executableTarget(name: "EmbedAssetsTool"),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["EmbedAssetsTool"], path: "Sources/EmbedAssets"),
        .target(
            name: "FactKit",
            dependencies: [
                "WeftAssets",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: App
        .target(
            name: "WeftApp",
            dependencies: [
                "FactKit", "Weft", "WeftInitializer", "WeftServiceLifecycle",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
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
            dependencies: ["WeftApp", "FactKit", "Weft", "WeftInitializer", "WeftAssets", "WeftTerminal"]
        ),
        .executableTarget(
            name: "weft",
            dependencies: [
                "WeftApp",
                "WeftTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "WeftTests", dependencies: ["Weft", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "WeftInitializerTests",
            dependencies: [
                "WeftInitializer",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "WeftServiceLifecycleTests",
            dependencies: [
                "WeftServiceLifecycle", "Weft", "WeftInitializer",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What several test targets share: captured logs, temporary directories.
        .target(
            name: "WeftTestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/WeftTestSupport"
        ),
        .testTarget(
            name: "FactKitTests",
            dependencies: [
                "WeftTestSupport",
                "FactKit",
                "WeftAssets",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "WeftAppTests",
            dependencies: [
                "WeftTestSupport",
                "WeftApp", "FactKit", "Weft", "WeftInitializer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(name: "WeftTUITests", dependencies: ["WeftTUI", "WeftTerminal", "WeftApp", "FactKit", "Weft", "WeftInitializer"]),
        // Drives the ncurses adapter off-screen; scripts/test runs it under AddressSanitizer.
        .executableTarget(name: "WeftTerminalCheck", dependencies: ["WeftTerminal"], path: "Tests/WeftTerminalCheck"),
    ]
)

// One set of Swift settings for every target of ours: Swift 6 language mode is the tools
// version's default; imports are internal unless marked `public`, a file sees only the
// members of modules it imports itself, and a warning fails the build.
let upcomingFeatures = ["MemberImportVisibility", "InternalImportsByDefault"]
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? [])
        + upcomingFeatures.map { .enableUpcomingFeature($0) }
        + [.treatAllWarnings(as: .error)]
}
