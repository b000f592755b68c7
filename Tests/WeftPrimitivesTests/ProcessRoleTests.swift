import Testing

@testable import WeftPrimitives

@Suite("What a process is for: tests, previews or an app")
struct ProcessRoleTests {
    private static func role(_ arguments: [String], _ environment: [String: String] = [:]) -> ProcessRole {
        ProcessRole(arguments: arguments, environment: { environment[$0] })
    }

    @Test("this process runs tests")
    func thisProcess() {
        #expect(ProcessRole.current == .tests)
    }

    @Test("test runners are told by their arguments: SwiftPM's bundle, xctest, Swift Testing's helper")
    func testRunners() {
        #expect(Self.role(["/repo/.build/debug/AppPackageTests.xctest"]) == .tests)
        #expect(Self.role([#"C:\repo\.build\debug\AppPackageTests.xctest.exe"#]) == .tests)
        #expect(Self.role(["/usr/bin/xctest", "App.xctest"]) == .tests)
        #expect(Self.role(["/usr/libexec/swift/pm/swiftpm-testing-helper", "--test-bundle-path", "x"]) == .tests)
        #expect(Self.role(["/repo/.build/debug/AppPackageTests", "--testing-library", "swift-testing"]) == .tests)
    }

    @Test("Xcode's test variables mean tests; its preview variable means previews, even under a test runner")
    func environment() {
        #expect(Self.role(["/Applications/App.app/App"], ["XCTestConfigurationFilePath": "/tmp/x"]) == .tests)
        #expect(Self.role(["/Applications/App.app/App"], ["XCTestSessionIdentifier": "1"]) == .tests)
        #expect(Self.role(["App.xctest"], ["XCODE_RUNNING_FOR_PREVIEWS": "1"]) == .previews)
        #expect(Self.role(["/Applications/App.app/App"], ["XCODE_RUNNING_FOR_PREVIEWS": "0"]) == .app)
    }

    @Test("an app is an app, whatever its arguments mention")
    func apps() {
        #expect(Self.role(["/usr/local/bin/weft", "start", "--json"]) == .app)
        #expect(Self.role(["/usr/local/bin/weft", "--config", "tests.xctest.json"]) == .app)
        #expect(Self.role([]) == .app)
    }
}
