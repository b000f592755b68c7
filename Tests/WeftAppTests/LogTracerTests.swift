import Foundation
import Logging
import Testing
import Tracing
import WeftInitializer
import WeftTestSupport

@testable import WeftApp

/// `weft serve --log-level debug` shows the start-up's and each request's spans: the tracer
/// writes each span to the log when it ends, with ids that tie children to parents.
@MainActor
@Suite("LogTracer writes spans to the log")
struct LogTracerTests {
    final class Box: DependencyInitializationProcess {
        var value = 0
        var toContainer: Int { value }
    }

    @Test("an initializer run's spans become debug lines: step inside phase inside run, one trace")
    func runSpans() async throws {
        let lines = CapturedLog()
        let logger = lines.logger(level: .debug)
        let initializer = try DependencyInitializer(
            createProcess: { Box() },
            preSyncSteps: [SyncInitializationStep(title: "Set the value") { $0.value = 1 }],
            tracer: LogTracer(logger: logger))
        _ = try await initializer.run()

        let spans = lines.all.filter { $0.message.hasPrefix("span ") }
        #expect(spans.map(\.message) == ["span Set the value", "span weft.phase pre-sync", "span weft.initialize"])
        let (step, phase, run) = (spans[0].metadata, spans[1].metadata, spans[2].metadata)
        #expect(step["parent"] == phase["span"])
        #expect(phase["parent"] == run["span"])
        #expect(run["parent"] == nil)
        #expect(Set([step["trace"], phase["trace"], run["trace"]]).count == 1)
        #expect(step["span.weft.step.title"] == "Set the value", "attributes as a person writes them")
        #expect(step["span.weft.step.outcome"] == "finished")
        #expect(run["ms"].flatMap(Double.init).map { $0 >= 0 } == true)
        #expect(spans.allSatisfy { $0.level == .debug })
    }

    @Test("at info, the default, no span is written")
    func quietAtInfo() async throws {
        let lines = CapturedLog()
        let logger = lines.logger()
        let initializer = try DependencyInitializer(
            createProcess: { Box() },
            preSyncSteps: [SyncInitializationStep(title: "Set the value") { $0.value = 1 }],
            tracer: LogTracer(logger: logger))
        _ = try await initializer.run()
        #expect(lines.all.isEmpty)
    }

    @Test("attribute values are written plainly")
    func plainAttributes() {
        #expect(LogTracer.plain(.string("finished")) == "finished")
        #expect(LogTracer.plain(.int64(200)) == "200")
        #expect(LogTracer.plain(.bool(false)) == "false")
    }
}
