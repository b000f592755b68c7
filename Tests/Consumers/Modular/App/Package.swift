// swift-tools-version: 6.2
// The app of a modular app (issue 58): it assembles the feature packages' modules into one
// container. Weft by URL; the features beside it by path. scripts/check-consumer runs it whole,
// and with the accounts feature left out, when assembly must name the unmet requirement.
import PackageDescription

let package = Package(
    name: "ModularApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(url: "https://github.com/weft-project/weft", from: "0.1.0"),
        .package(path: "../Accounts"),
        .package(path: "../Feed"),
    ],
    targets: [
        .executableTarget(
            name: "ModularApp",
            dependencies: [
                .product(name: "Weft", package: "weft"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Feed", package: "Feed"),
            ]
        )
    ]
)
