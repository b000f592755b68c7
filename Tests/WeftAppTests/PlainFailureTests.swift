import Foundation
import Testing
import Weft

@testable import FactKit
@testable import WeftApp
@testable import WeftInitializer

@Suite("A failure in a person's words, for the command line")
struct PlainFailureTests {
    static let step = InitializationStepInfo(
        id: "fact", title: "Fetch the first cat fact", phase: .async, index: 2, position: 5, type: .repeatable)
    static let staging = Environment(
        name: "staging", description: "local", source: .remote(URL(string: "http://127.0.0.1:8089")!))

    @Test(
        "Hints name command-line options, never the interactive app's keys",
        arguments: [
            FactServiceError.httpStatus(url: URL(string: "http://127.0.0.1:1/fact")!, code: 500)
                as any Error & Sendable,
            FactServiceError.timedOut(url: URL(string: "http://127.0.0.1:1/fact")!, after: .seconds(3)),  // a value
            FactServiceError.unreachable(url: URL(string: "https://catfact.ninja/fact")!, reason: "no route"),
            FactServerError.cannotListen(port: 0, reason: "no loopback"),
            InitializationStepTimeoutError(stepTitle: "Fetch the first cat fact", timeout: .seconds(1)),  // a value
            CocoaError(.featureUnsupported),
        ])
    func noKeysInHints(error: any Error & Sendable) {
        let failure = PlainFailure(step: Self.step, error: error, elapsed: .milliseconds(3), environment: nil)
        #expect(!failure.hint.isEmpty)
        #expect(!failure.hint.contains("(e)") && !failure.hint.contains("(r)"), "\(failure.hint)")
    }

    @Test("An unreachable local server suggests `weft serve` on its port")
    func unreachableStaging() {
        let error = FactRepositoryError.service(
            .unreachable(url: URL(string: "http://127.0.0.1:8089/fact")!, reason: "refused"))
        let failure = PlainFailure(step: Self.step, error: error, elapsed: .milliseconds(3), environment: Self.staging)
        #expect(failure.hint == "Is the server running? Try `weft serve --port 8089` in another terminal.")
        #expect(failure.environment == "staging")
        #expect(failure.step == "Fetch the first cat fact" && failure.phase == "async")
        #expect(failure.exitStatus == .initializationFailed)
    }

    @Test("A container's 'factory threw' wrapper is removed so the message and hint fit the real cause")
    func unwrapsResolution() {
        let cause = HistoryDatabaseError.notADatabase(path: "/tmp/h.sqlite", reason: "file is not a database")
        let error = ResolutionError.factoryFailed(ServiceKey(HistoryDatabase.self), path: [], underlying: cause)
        let failure = PlainFailure(step: Self.step, error: error, elapsed: .milliseconds(3), environment: nil)
        #expect(failure.message == cause.description)
        #expect(failure.hint.contains("--database PATH"))
        #expect(failure.exitStatus == .usageError)
    }

    @Test("A cancellation reads as interrupted, with no hint")
    func cancellation() {
        let failure = PlainFailure(
            step: Self.step, error: CancellationError(), elapsed: .milliseconds(3), environment: nil)
        #expect(failure.isCancellation)
        #expect(failure.message == "interrupted")
        #expect(failure.hint.isEmpty)
        #expect(failure.exitStatus == .interrupted)
    }

    @Test("Messages are one line without control characters")
    func oneLine() {
        let error = FactServiceError.invalidBody(
            url: URL(string: "http://127.0.0.1:1/fact")!, reason: "got\n\u{1B}[2Jgarbage")
        let failure = PlainFailure(step: Self.step, error: error, elapsed: .milliseconds(3), environment: nil)
        #expect(!failure.message.contains("\n") && !failure.message.contains("\u{1B}"))
    }
}
