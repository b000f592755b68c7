// swift-tools-version: 6.0
// A separate package so library users never fetch benchmark dependencies.
import PackageDescription

let package = Package(
    name: "WeftBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "WeftBenchmarks",
            dependencies: [
                .product(name: "Weft", package: "main"),
                .product(name: "WeftInitializer", package: "main"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        )
    ]
)
