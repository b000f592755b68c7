// swift-tools-version: 6.2
// A library user's package, written as the README tells one to: this repository by URL and
// version, no traits named. scripts/check-consumer builds it against a clone of the repository
// (the URL becomes a `file://` one, the version a tag on the clone) with both build systems,
// as written and with `traits: ["ServiceLifecycle"]`, and checks what it resolves.
import PackageDescription

let package = Package(
    name: "LibraryConsumer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(url: "https://github.com/weft-project/weft", from: "0.1.0")
    ],
    targets: [
        .executableTarget(
            name: "LibraryConsumer",
            dependencies: [
                .product(name: "Weft", package: "weft"),
                .product(name: "WeftInitializer", package: "weft"),
            ]
        ),
        // The third product, as its article shows it: start-up planned from the container.
        .executableTarget(
            name: "PlannedStartup",
            dependencies: [
                .product(name: "Weft", package: "weft"),
                .product(name: "WeftInitializer", package: "weft"),
                .product(name: "WeftStartup", package: "weft"),
            ]
        ),
        // Built in release by scripts/check-consumer: a scoped service resolved from the root
        // warns on standard error with no logging set up.
        .executableTarget(
            name: "ScopedFromRoot",
            dependencies: [.product(name: "Weft", package: "weft")]
        ),
        // The testing kit, as a user's test target names it: no package more to resolve.
        .testTarget(
            name: "LibraryConsumerTests",
            dependencies: [
                .product(name: "Weft", package: "weft"),
                .product(name: "WeftTesting", package: "weft"),
            ]
        ),
    ]
)
