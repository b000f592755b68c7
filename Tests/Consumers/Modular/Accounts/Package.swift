// swift-tools-version: 6.2
// A feature package of a modular app (issue 58), owned by its own team: it depends on Weft by
// URL, as users do, and ships one module with its own module test. scripts/check-consumer builds
// it against a clone of this repository (Tests/Consumers/Modular).
import PackageDescription

let package = Package(
    name: "Accounts",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "Accounts", targets: ["Accounts"])],
    dependencies: [
        .package(url: "https://github.com/weft-project/weft", from: "0.1.0")
    ],
    targets: [
        .target(name: "Accounts", dependencies: [.product(name: "Weft", package: "weft")]),
        .testTarget(
            name: "AccountsTests",
            dependencies: ["Accounts", .product(name: "WeftTesting", package: "weft")]
        ),
    ]
)
