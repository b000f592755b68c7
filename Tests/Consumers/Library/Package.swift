// swift-tools-version: 6.2
// A library user's package: it names `Weft` and `WeftInitializer`, and in its tests
// `WeftTesting`, with `traits: []`, so it must resolve only their light API dependencies
// (scripts/test checks the set).
import Foundation
import PackageDescription

/// A path dependency's identity is its folder's name, which differs between clones.
let weftPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Tests/Consumers/Library
    .deletingLastPathComponent()  // Tests/Consumers
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the Weft package
    .lastPathComponent

let package = Package(
    name: "LibraryConsumer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "LibraryConsumer",
            dependencies: [
                .product(name: "Weft", package: weftPackage),
                .product(name: "WeftInitializer", package: weftPackage),
            ]
        ),
        // The testing kit, as a user's test target names it: no package more to resolve.
        .testTarget(
            name: "LibraryConsumerTests",
            dependencies: [
                .product(name: "Weft", package: weftPackage),
                .product(name: "WeftTesting", package: weftPackage),
            ]
        ),
    ]
)
