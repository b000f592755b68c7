import Foundation
import Logging
import Testing
import WeftTestSupport

@testable import FactKit

/// Each request to the fact server goes through Hummingbird's request-logging middleware,
/// on the logger the server was given (and through its tracing middleware, in the same chain).
@Suite("FactServer logs each request on its logger")
struct FactServerLoggingTests {
    @Test("a request is logged at info with its method, path and a request id; the silent default logs nothing")
    func requestIsLogged() async throws {
        let log = CapturedLog()
        let server = try FactServer.bundled(logger: log.logger())
        let baseURL = try await server.start()
        let (status, _) = try await httpGet(baseURL.appendingPathComponent("fact"))
        await server.stop()
        #expect(status == 200)
        let requests = log.all.map(\.description).filter { $0.hasPrefix("info Request ") }
        #expect(requests.count == 1)
        let line = try #require(requests.first)
        #expect(line.contains("hb.request.method=GET"))
        #expect(line.contains("hb.request.path=/fact"))
        #expect(line.contains("hb.request.id="))

        let quiet = try FactServer.bundled()
        #expect(await quiet.logger.handler is SwiftLogNoOpLogHandler)
    }
}
