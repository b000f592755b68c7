import Foundation
import Logging
import Synchronization
import Testing
@testable import FactKit

/// Each request to the fact server goes through Hummingbird's request-logging middleware,
/// on the logger the server was given (and through its tracing middleware, in the same chain).
@Suite("FactServer logs each request on its logger")
struct FactServerLoggingTests {
    /// Keeps `message metadata` lines, for asserting what the server logged.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    struct CapturingHandler: LogHandler {
        let lines: Lines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let details = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            lines.append("\(event.level) \(event.message) \(details)")
        }
    }

    @Test("a request is logged at info with its method, path and a request id; the silent default logs nothing")
    func requestIsLogged() async throws {
        let lines = Lines()
        let logger = Logger(label: "test") { _ in CapturingHandler(lines: lines) }
        let server = try FactServer.bundled(logger: logger)
        let baseURL = try await server.start()
        let (status, _) = try await httpGet(baseURL.appendingPathComponent("fact"))
        await server.stop()
        #expect(status == 200)
        let requests = lines.all.filter { $0.hasPrefix("info Request ") }
        #expect(requests.count == 1)
        let line = try #require(requests.first)
        #expect(line.contains("hb.request.method=GET"))
        #expect(line.contains("hb.request.path=/fact"))
        #expect(line.contains("hb.request.id="))

        let quiet = try FactServer.bundled()
        #expect(await quiet.logger.handler is SwiftLogNoOpLogHandler)
    }
}
