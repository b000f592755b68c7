#if canImport(Darwin)
    import Darwin
#elseif os(Windows)
    import ucrt
#elseif canImport(Android)
    import Android
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(WASILibc)
    import WASILibc
#endif

/// What the running process is for, read once from its arguments and environment: running
/// tests (XCTest or Swift Testing), rendering Xcode's previews, or anything else, an app.
///
/// The signs are those swift-issue-reporting's `isTesting` reads: an XCTest variable in the
/// environment (Xcode sets one), or an argument naming a test runner: SwiftPM's test bundle
/// (`….xctest`, the binary on Linux and Windows), `xctest` (macOS), `swiftpm-testing-helper`
/// (Swift Testing on macOS) or `--testing-library`. Previews are told by
/// `XCODE_RUNNING_FOR_PREVIEWS=1`, and are not tests.
package enum ProcessRole: Sendable, Equatable {
    case tests
    case previews
    case app

    /// This process's role, read once.
    package static let current = ProcessRole(arguments: CommandLine.arguments, environment: environmentVariable)

    /// The role of a process with `arguments` whose environment gives `environment(name)`.
    package init(arguments: [String], environment: (String) -> String?) {
        if environment("XCODE_RUNNING_FOR_PREVIEWS") == "1" {
            self = .previews
            return
        }
        let xcTestVariables = [
            "XCTestBundlePath", "XCTestBundleInjectPath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier",
        ]
        if xcTestVariables.contains(where: { environment($0) != nil }) {
            self = .tests
            return
        }
        let isTestRunner = arguments.contains { argument in
            let name = argument.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? argument
            return argument == "--testing-library" || name == "xctest" || name == "swiftpm-testing-helper"
                || name.hasSuffix(".xctest") || name.hasSuffix(".xctest.exe")
        }
        self = isTestRunner ? .tests : .app
    }

    /// The value of the environment variable `name`, if set.
    private static func environmentVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
