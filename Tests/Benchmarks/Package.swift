// swift-tools-version: 6.2
// A separate package so library users never fetch benchmark dependencies; it lives in
// Tests/Benchmarks and depends on the Weft package two folders up.
import Foundation
import PackageDescription

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
    ],
    targets: [
        // glibc's heap statistics, for the bytes each registration keeps.
        .target(name: "CHeap"),
        .executableTarget(
            name: "WeftBenchmarks",
            dependencies: [
                .product(name: "Weft", package: weftPackage),
                .product(name: "WeftInitializer", package: weftPackage),
                .product(name: "Swinject", package: "Swinject"),
                "CHeap",
            ],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
    ]
)
