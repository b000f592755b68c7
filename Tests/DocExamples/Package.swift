// swift-tools-version: 6.2
// The docs' twins: every folder of Sources/ is an executable that holds the Swift blocks of one
// article (README.md or a DocC article of Weft, WeftInitializer, WeftServiceLifecycle or WeftStartup) and runs
// them. scripts/doc-examples checks that each block is the text of its twin, builds this
// package with warnings as errors and checks what the examples print.
import Foundation
import PackageDescription

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
/// A path dependency's identity is its folder's name (`weft` in a clone named so, `main` in one
/// named main): read it from the path rather than spell it.
let weft = here.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let examples = (try? FileManager.default.contentsOfDirectory(atPath: here.appendingPathComponent("Sources").path)) ?? []

let package = Package(
    name: "DocExamples",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../..", traits: ["ServiceLifecycle"])
    ],
    targets: examples.sorted().map { name in
        .executableTarget(
            name: name,
            dependencies: [
                .product(name: "Weft", package: weft),
                .product(name: "WeftInitializer", package: weft),
                .product(name: "WeftServiceLifecycle", package: weft),
                .product(name: "WeftStartup", package: weft),
                .product(name: "WeftTesting", package: weft),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        )
    }
)
