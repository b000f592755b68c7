// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Weft",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Weft", targets: ["Weft"]),
        .library(name: "WeftInitializer", targets: ["WeftInitializer"]),
        .executable(name: "weft", targets: ["weft"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // MARK: Libraries
        .target(name: "Weft", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),
        .target(name: "WeftInitializer"),

        // MARK: Domain
        .target(
            name: "WeftAssets",
            path: "Assets",
            resources: [.copy("environments.json"), .copy("facts.json"), .copy("logo.txt")]
        ),
        .target(
            name: "FactKit",
            dependencies: [
                "Weft",
                "WeftInitializer",
                "WeftAssets",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),

        // MARK: Terminal app
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(name: "CNCursesShims", dependencies: ["CNCurses"]),
        .target(name: "WeftTUI", dependencies: ["FactKit", "CNCursesShims"]),
        .executableTarget(
            name: "weft",
            dependencies: [
                "WeftTUI",
                "FactKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "WeftTests", dependencies: ["Weft"]),
        .testTarget(name: "WeftInitializerTests", dependencies: ["WeftInitializer"]),
        .testTarget(name: "FactKitTests", dependencies: ["FactKit"]),
        .testTarget(name: "WeftTUITests", dependencies: ["WeftTUI"]),
    ]
)
