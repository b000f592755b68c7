import Foundation
import Testing
@testable import FactKit

@Suite("FactService against the real bundled server")
struct FactServiceTests {
    @Test("fetches a bundled fact with its length over loopback HTTP")
    func fetchesFact() async throws {
        let facts = try FactServer.bundledFacts()
        let fact = try await withFactServer { _, baseURL in
            try await FactService(baseURL: baseURL, timeout: .seconds(5)).fetchFact()
        }
        #expect(facts.contains(fact.fact))
        #expect(fact.length == fact.fact.count)
    }

    @Test("an HTTP 500 answer becomes httpStatus(500)")
    func http500() async throws {
        let error = try await withFactServer(fault: .http500) { _, baseURL in
            await #expect(throws: FactServiceError.self) { try await FactService(baseURL: baseURL, timeout: .seconds(5)).fetchFact() }
        }
        guard case .httpStatus(_, let code)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(code == 500)
        #expect(error?.description.contains("HTTP 500") == true)
    }

    @Test("a non-JSON answer becomes invalidBody")
    func garbage() async throws {
        let error = try await withFactServer(fault: .garbage) { _, baseURL in
            await #expect(throws: FactServiceError.self) { try await FactService(baseURL: baseURL, timeout: .seconds(5)).fetchFact() }
        }
        guard case .invalidBody(_, let reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("not JSON"))
    }

    @Test("a connection closed without a response becomes connectionDropped")
    func drop() async throws {
        let error = try await withFactServer(fault: .drop) { _, baseURL in
            await #expect(throws: FactServiceError.self) { try await FactService(baseURL: baseURL, timeout: .seconds(5)).fetchFact() }
        }
        guard case .connectionDropped? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test("an answer slower than the client's timeout becomes timedOut")
    func slow() async throws {
        let error = try await withFactServer(fault: .slow, slowResponseDelay: .seconds(60)) { _, baseURL in
            await #expect(throws: FactServiceError.self) {
                try await FactService(baseURL: baseURL, timeout: .milliseconds(300)).fetchFact()
            }
        }
        guard case .timedOut(_, let after)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(after == .milliseconds(300))
        #expect(error?.description.contains("300 ms") == true)
    }

    @Test("a sub-second timeout is honoured as given, not truncated to whole seconds")
    func subSecondTimeout() async throws {
        // FoundationNetworking alone would turn 900 ms into an immediate timeout.
        let fact = try await withFactServer(fault: .slow, slowResponseDelay: .milliseconds(50)) { _, baseURL in
            try await FactService(baseURL: baseURL, timeout: .milliseconds(900)).fetchFact()
        }
        #expect(!fact.fact.isEmpty)
    }

    @Test("a refused connection (port bound, then released) becomes unreachable")
    func refused() async throws {
        let server = try FactServer.bundled()
        let baseURL = try await server.start()
        await server.stop()
        let service = FactService(baseURL: baseURL, timeout: .seconds(5))
        let error = await #expect(throws: FactServiceError.self) { try await service.fetchFact() }
        guard case .unreachable(let url, let reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(url == baseURL.appendingPathComponent("fact"))
        #expect(reason == "connection refused")
        #expect(error?.description.contains(baseURL.absoluteString) == true)
    }

    @Test("a body over the size limit becomes bodyTooLarge")
    func tooLarge() async throws {
        let error = try await withFactServer { _, baseURL in
            await #expect(throws: FactServiceError.self) {
                try await FactService(baseURL: baseURL, timeout: .seconds(5), maximumBodySize: 16).fetchFact()
            }
        }
        guard case .bodyTooLarge(_, let limit, let size)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(limit == 16)
        #expect(size > 16)
    }

    @Test("a 404 from a wrong base path becomes httpStatus(404)")
    func wrongBase() async throws {
        let error = try await withFactServer { _, baseURL in
            await #expect(throws: FactServiceError.self) {
                try await FactService(baseURL: baseURL.appendingPathComponent("nope"), timeout: .seconds(5)).fetchFact()
            }
        }
        guard case .httpStatus(_, let code)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(code == 404)
    }

    @Test("bodies missing fields or with wrong types are explained", arguments: [
        (#"{"text": "cats"}"#, #""fact" is missing"#),
        (#"{"fact": 3, "length": 1}"#, #""fact" is 3, not a string"#),
        (#"{"fact": "cats"}"#, #""length" is missing"#),
        (#"{"fact": "cats", "length": "4"}"#, #""length" is "4", not an integer"#),
        (#"["fact"]"#, "expected a JSON object, got an array"),
    ])
    func invalidBodies(body: String, reason: String) throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/fact"))
        #expect(throws: FactServiceError.invalidBody(url: url, reason: reason)) {
            try FactService.decodeFact(from: Data(body.utf8), url: url)
        }
    }
}
