import Foundation
import NIOHTTP1
import Testing

@testable import FactKit

@Suite("FactServer's /metrics route")
struct FactServerMetricsTests {
    private static let exposition = Array("# TYPE weft_startup_runs_total counter\nweft_startup_runs_total 1\n".utf8)

    @Test("Given metrics, /metrics answers them in the Prometheus text format, whatever the fault")
    func servesMetrics() async throws {
        for fault in [nil, ServerFault.http500, .garbage] {
            let server = try FactServer(facts: ["a fact"], fault: fault, metrics: { Self.exposition })
            let baseURL = try await server.start()
            let (status, headers, body) = try await httpRequest(baseURL.appendingPathComponent("metrics"))
            await server.stop()
            #expect(status == 200, "fault \(String(describing: fault))")
            #expect(headers.first(name: "Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(Array(body) == Self.exposition)
        }
    }

    @Test("Without metrics, /metrics is not found")
    func noMetrics() async throws {
        try await withFactServer { _, baseURL in
            let (status, _) = try await httpGet(baseURL.appendingPathComponent("metrics"))
            #expect(status == 404)
        }
    }
}
