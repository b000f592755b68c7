// swift-tools-version: 6.2
// A second feature package of a modular app (issue 58): it needs the accounts feature's
// `AccountLookup`, which it declares as its module's requirement, and tests its module alone
// with a fake of the accounts module. Weft by URL; the accounts package beside it by path.
import PackageDescription

let package = Package(
    name: "Feed",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "Feed", targets: ["Feed"])],
    dependencies: [
        .package(url: "https://github.com/weft-project/weft", from: "0.1.0"),
        .package(path: "../Accounts"),
    ],
    targets: [
        .target(
            name: "Feed",
            dependencies: [.product(name: "Weft", package: "weft"), .product(name: "Accounts", package: "Accounts")]
        ),
        .testTarget(
            name: "FeedTests",
            dependencies: [
                "Feed", .product(name: "Accounts", package: "Accounts"),
                .product(name: "Weft", package: "weft"), .product(name: "WeftTesting", package: "weft"),
            ]
        ),
    ]
)
