import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import WeftTesting

@testable import FactKit

@Suite("FactService against the real bundled server")
struct FactServiceTests {
    @Test("fetches a bundled fact with its length over loopback HTTP")
    func fetchesFact() async throws {
        let facts = try FactServer.bundledFacts()
        let fact = try await withFactServer { _, baseURL in
            try await makeService(baseURL, timeout: .seconds(30)).fetchFact()
        }
        #expect(facts.contains(fact.fact))
        #expect(fact.length == fact.fact.count)
    }

    @Test("an HTTP 500 answer becomes httpStatus(500)")
    func http500() async throws {
        let error = try await withFactServer(fault: .http500) { _, baseURL in
            await #expect(throws: FactServiceError.self) {
                try await makeService(baseURL, timeout: .seconds(30)).fetchFact()
            }
        }
        guard case .httpStatus(_, let code)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(code == 500)
        #expect(error?.description.contains("HTTP 500") == true)
    }

    @Test("a non-JSON answer becomes invalidBody")
    func garbage() async throws {
        let error = try await withFactServer(fault: .garbage) { _, baseURL in
            await #expect(throws: FactServiceError.self) {
                try await makeService(baseURL, timeout: .seconds(30)).fetchFact()
            }
        }
        guard case .invalidBody(_, let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(reason.contains("not JSON"))
    }

    @Test("a connection closed without a response becomes connectionDropped")
    func drop() async throws {
        let error = try await withFactServer(fault: .drop) { _, baseURL in
            await #expect(throws: FactServiceError.self) {
                try await makeService(baseURL, timeout: .seconds(30)).fetchFact()
            }
        }
        guard case .connectionDropped? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    @Test("an answer slower than the client's timeout becomes timedOut, at the timeout", .timeLimit(.minutes(1)))
    func slow() async throws {
        let clock = ManualClock()
        let error = try await withFactServer(fault: .slow, slowResponseDelay: .seconds(60)) { _, baseURL in
            let service = makeService(baseURL, timeout: .milliseconds(300), on: clock)  // on the manual clock
            let fetch = Task { try await service.fetchFact() }
            // The request is out and its timeout asleep on the test's clock: nothing ends it
            // until the clock gets there, however long the server or a busy machine takes.
            try await clock.waitForSleepers(1)
            #expect(clock.deadlines == [at(.milliseconds(300))])  // on the manual clock
            #expect(clock.advance(to: at(.milliseconds(299))).isEmpty)  // on the manual clock
            #expect(clock.advance(to: at(.milliseconds(300))) == [at(.milliseconds(300))])  // on the manual clock
            return await #expect(throws: FactServiceError.self) { try await fetch.value }
        }
        guard case .timedOut(_, let after)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(after == .milliseconds(300))  // the error's figure, not a deadline
        #expect(error?.description.contains("300 ms") == true)
    }

    @Test("a sub-second timeout is honoured as given, not truncated to whole seconds")
    func subSecondTimeout() throws {
        // FoundationNetworking alone would turn 900 ms into an immediate timeout. AsyncHTTPClient
        // gets the time left to the nanosecond, and the app's timer hands it the timeout itself.
        #expect(FactService.transportTimeout(.milliseconds(900)) == .nanoseconds(900_000_000))  // a value
        #expect(FactService.transportTimeout(.milliseconds(1_500)) == .nanoseconds(1_500_000_000))  // a value
        #expect(FactService.transportTimeout(.milliseconds(-5)) == .nanoseconds(0))  // a value
        #expect(RequestTimer.continuous.transportLimit(.milliseconds(900)) == .milliseconds(900))  // a value
    }

    @Test(
        "a server that accepts and never answers times out when the timeout says, not at a whole second",
        .timeLimit(.minutes(1)))
    func exactTimeout() async throws {
        try await withTCPServer { connection in
            connection.waitForClose()
        } _: { server in
            let clock = ManualClock()
            let error = try await withOwnClient { client in
                let timeout = Duration.milliseconds(1500)  // on the manual clock
                let service = makeService(server.baseURL, timeout: timeout, on: clock, client: client)
                let fetch = Task { try await service.fetchFact() }
                try await clock.waitForSleepers(1)
                // Not before the timeout (a client rounding 1.5 s to whole seconds gives up at 1 s),
                // and at it exactly.
                #expect(clock.advance(to: at(.milliseconds(1_499))).isEmpty)  // on the manual clock
                #expect(clock.advance(to: at(.milliseconds(1_500))) == [at(.milliseconds(1_500))])  // manual clock
                return await #expect(throws: FactServiceError.self) { try await fetch.value }
            }
            let fact = server.baseURL.appendingPathComponent("fact")
            #expect(error == .timedOut(url: fact, after: .milliseconds(1500)))  // the error's figure
            #expect(error?.description.contains("within 1.5 s") == true)
        }
    }

    @Test(
        "the app's timer ends a request to a silent server at its timeout on the wall clock",
        .timeLimit(.minutes(1)))
    func wallClockTimeout() async throws {
        // The one real-time timeout here: what the app runs with, end to end. It waits at least
        // its 5 s; a busy machine only makes it later, within a generous bound.
        try await withTCPServer { connection in
            connection.waitForClose()
        } _: { server in
            let started = ContinuousClock.now
            let error = try await withOwnClient { client in
                await #expect(throws: FactServiceError.self) {
                    try await FactService(baseURL: server.baseURL, timeout: .seconds(5), client: client).fetchFact()
                }
            }
            let elapsed = ContinuousClock.now - started
            #expect(error == .timedOut(url: server.baseURL.appendingPathComponent("fact"), after: .seconds(5)))
            #expect(elapsed >= .seconds(5) && elapsed < .seconds(50), "took \(elapsed)")
        }
    }

    @Test("a refused connection (port bound, then released) becomes unreachable")
    func refused() async throws {
        let server = try FactServer.bundled()
        let baseURL = try await server.start()
        await server.stop()
        let service = makeService(baseURL, timeout: .seconds(30))
        let error = await #expect(throws: FactServiceError.self) { try await service.fetchFact() }
        guard case .unreachable(let url, let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(url == baseURL.appendingPathComponent("fact"))
        #expect(reason == "connection refused")
        #expect(error?.description.contains(baseURL.absoluteString) == true)
    }

    @Test("a body over the size limit becomes bodyTooLarge")
    func tooLarge() async throws {
        let (error, factURL) = try await withFactServer { _, baseURL in
            let error = await #expect(throws: FactServiceError.self) {
                try await makeService(baseURL, timeout: .seconds(30), maximumBodySize: 16).fetchFact()
            }
            return (error, baseURL.appendingPathComponent("fact"))
        }
        #expect(error == .bodyTooLarge(url: factURL, limit: 16))
        #expect(error?.description.contains("more than the 16 bytes allowed") == true)
    }

    @Test("a 50 MB answer is refused while it streams: the client stops reading at 64 KiB")
    func hugeStreamedBody() async throws {
        let sent = ByteCounter()
        let error = try await withTCPServer { connection in
            // Chunked, so no Content-Length gives the size away: the limit must hold while reading.
            connection.readRequestHead()
            guard
                connection.send(
                    Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                )
            else { return }
            let chunk =
                Data("100000\r\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 0x100000) + Data("\r\n".utf8)
            for _ in 0..<50 {
                guard connection.send(chunk) else { return }
                sent.add(0x100000)
            }
            _ = connection.send(Data("0\r\n\r\n".utf8))
        } _: { server in
            let error = try await withOwnClient { client in
                await #expect(throws: FactServiceError.self) {
                    try await FactService(baseURL: server.baseURL, timeout: .seconds(30), client: client).fetchFact()
                }
            }
            #expect(error == .bodyTooLarge(url: server.baseURL.appendingPathComponent("fact"), limit: 64 * 1024))
            return error
        }
        // The server has stopped, so its count is final.
        #expect(error?.description.contains("more than the 64 KiB allowed") == true)
        #expect(sent.value < 50 * 0x100000, "the client closed the connection before the server could send it all")
    }

    @Test("an answer whose Content-Length is over the limit is refused before its body is read")
    func declaredTooLarge() async throws {
        try await withTCPServer { connection in
            connection.readRequestHead()
            _ = connection.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 52428800\r\n\r\n{".utf8))
            connection.waitForClose()
        } _: { server in
            let error = try await withOwnClient { client in
                await #expect(throws: FactServiceError.self) {
                    try await FactService(baseURL: server.baseURL, timeout: .seconds(30), client: client).fetchFact()
                }
            }
            #expect(error == .bodyTooLarge(url: server.baseURL.appendingPathComponent("fact"), limit: 64 * 1024))
        }
    }

    @Test("the client made for the app fetches a fact and shuts down cleanly")
    func appClient() async throws {
        let client = FactService.makeHTTPClient()
        let fact = try await withFactServer { _, baseURL in
            try await FactService(baseURL: baseURL, timeout: .seconds(30), client: client).fetchFact()
        }
        try await client.shutdown()
        #expect(!fact.fact.isEmpty)
    }

    @Test("HTTPS goes through TLS: a plain-HTTP port spoken to over https fails with a TLS reason")
    func httpsUsesTLS() async throws {
        let error = try await withFactServer { _, baseURL in
            let https = try #require(
                URL(string: baseURL.absoluteString.replacingOccurrences(of: "http://", with: "https://")))
            return await #expect(throws: FactServiceError.self) {
                try await makeService(https, timeout: .seconds(30)).fetchFact()
            }
        }
        guard case .transport(_, let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(
            reason.localizedCaseInsensitiveContains("ssl") || reason.localizedCaseInsensitiveContains("tls"),
            "\(reason)")
    }

    @Test("a 404 from a wrong base path says the URL has no fact endpoint")
    func wrongBase() async throws {
        let error = try await withFactServer { _, baseURL in
            await #expect(throws: FactServiceError.self) {
                try await makeService(baseURL.appendingPathComponent("nope"), timeout: .seconds(30)).fetchFact()
            }
        }
        guard case .httpStatus(_, let code)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(code == 404)
        #expect(error?.description.contains("the URL has no fact endpoint, check the environment's source") == true)
    }

    @Test(
        "a body a lenient decoder would settle is refused: a malformed number, a key given twice",
        arguments: [
            #"{"fact": "0", "length": 1, "length": 1e19e19}"#,
            #"{"fact": "a", "fact": "b", "length": 1}"#,
            #"{"fact": "a", "length": 01}"#,
        ])
    func strictBodies(body: String) throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/fact"))
        let error = #expect(throws: FactServiceError.self) {
            try FactService.decodeFact(from: Data(body.utf8), url: url)
        }
        guard case .invalidBody(_, let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("not JSON: ") && reason.contains("at line 1, column"), "\(reason)")
    }

    @Test(
        "bodies missing fields or with wrong types are explained",
        arguments: [
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
