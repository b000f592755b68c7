import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WeftTestSupport
import WeftTesting

@testable import FactKit

@Suite("FactServer serves bundled facts on loopback")
struct FactServerTests {
    private struct FactList: Decodable { var data: [CatFact] }
    private struct Health: Decodable {
        var status: String
        var facts: Int
    }

    @Test("the bundled facts file holds at least 100 distinct plain-text facts")
    func bundledFacts() throws {
        let facts = try FactServer.bundledFacts()
        #expect(facts.count >= 100)
        #expect(Set(facts).count == facts.count)
        for fact in facts {
            #expect(!fact.contains("<") && !fact.contains("*") && !fact.contains("`"), "markup in: \(fact)")
            #expect(fact == fact.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test("start on port 0 listens on 127.0.0.1 with an ephemeral port, reported after start")
    func ephemeralPort() async throws {
        let server = try FactServer.bundled()
        #expect(await server.port == nil)
        let baseURL = try await server.start()
        let port = try #require(await server.port)
        #expect(port != 0)
        #expect(baseURL.absoluteString == "http://127.0.0.1:\(port)")
        #expect(await server.baseURL == baseURL)
        #expect(try await server.start() == baseURL, "a second start keeps the running server")
        await server.stop()
        #expect(await server.port == nil)
    }

    @Test("GET /fact, /facts?limit=N (clamped) and /health answer JSON")
    func routes() async throws {
        let facts = try FactServer.bundledFacts()
        try await withFactServer { _, baseURL in
            let (status, body) = try await httpGet(baseURL.appendingPathComponent("fact"))
            #expect(status == 200)
            let fact = try JSONDecoder().decode(CatFact.self, from: body)
            #expect(facts.contains(fact.fact))
            #expect(fact.length == fact.fact.count)

            for (limit, expected) in [
                ("3", 3), ("+2", 2), ("100000", facts.count), ("99999999999999999999", facts.count),
            ] {
                let url = try #require(URL(string: "\(baseURL.absoluteString)/facts?limit=\(limit)"))
                let (status, body) = try await httpGet(url)
                #expect(status == 200)
                let list = try JSONDecoder().decode(FactList.self, from: body)
                #expect(list.data.count == expected, "limit=\(limit)")
                #expect(Set(list.data.map(\.fact)).count == expected, "no repeats for limit=\(limit)")
            }
            for (limit, reason) in [
                ("lots", #"limit must be a whole number from 1 up, got "lots""#),
                ("0", "limit must be at least 1, got 0"),
                ("-5", "limit must be at least 1, got -5"),
            ] {
                let (status, body) = try await httpGet(
                    try #require(URL(string: "\(baseURL.absoluteString)/facts?limit=\(limit)")))
                #expect(status == 400, "limit=\(limit)")
                #expect(try JSONDecoder().decode([String: String].self, from: body) == ["error": reason])
            }

            let (healthStatus, healthBody) = try await httpGet(baseURL.appendingPathComponent("health"))
            #expect(healthStatus == 200)
            let health = try JSONDecoder().decode(Health.self, from: healthBody)
            #expect(health.status == "ok")
            #expect(health.facts == facts.count)

            let (missing, _) = try await httpGet(baseURL.appendingPathComponent("nope"))
            #expect(missing == 404)
        }
    }

    @Test("GET /fact deals every fact once before any comes again, and never the same twice in a row")
    func dealsEveryFact() async throws {
        let facts = try FactServer.bundledFacts()
        try await withFactServer { _, baseURL in
            var served: [String] = []
            for _ in 0...facts.count {
                let (status, body) = try await httpGet(baseURL.appendingPathComponent("fact"))
                #expect(status == 200)
                served.append(try JSONDecoder().decode(CatFact.self, from: body).fact)
            }
            #expect(Set(served.prefix(facts.count)) == Set(facts), "one round is every fact once")
            #expect(served[facts.count] != served[facts.count - 1], "the next round starts with another fact")
        }
    }

    @Test("The deck, from any seed: each round a permutation, no fact twice in a row, nothing from no facts")
    func deck() {
        for count in [0, 1, 2, 3, 7] {
            for seed in 0..<200 as Range<UInt64> {
                var generator = SplitMix64(seed: seed)
                var deck = FactRequestHandler.Deck(count: count)
                let dealt = (0..<(count * 5)).compactMap { _ in deck.deal(using: &generator) }
                #expect(dealt.count == count * 5, "count \(count), seed \(seed)")
                for round in stride(from: 0, to: dealt.count, by: max(count, 1)) {
                    #expect(dealt[round..<round + count].sorted() == Array(0..<count), "count \(count), seed \(seed)")
                }
                if count > 1 {
                    #expect(zip(dealt, dealt.dropFirst()).allSatisfy { $0 != $1 }, "count \(count), seed \(seed)")
                }
            }
        }
        var empty = FactRequestHandler.Deck(count: 0)
        var generator = SplitMix64(seed: 1)
        #expect(empty.deal(using: &generator) == nil)
    }

    @Test("stop releases the port so a new server can bind the same port")
    func stopReleasesPort() async throws {
        let first = try FactServer.bundled()
        try await first.start()
        let port = try #require(await first.port)
        await first.stop()
        let second = try FactServer.bundled(port: port)
        let url = try await second.start()
        #expect(await second.port == port)
        let (status, _) = try await httpGet(url.appendingPathComponent("health"))
        #expect(status == 200)
        await second.stop()
    }

    @Test("a port already in use gives portInUse naming the port")
    func portInUse() async throws {
        try await withFactServer { server, _ in
            let port = try #require(await server.port)
            let other = try FactServer.bundled(port: port)
            let error = await #expect(throws: FactServerError.self) { try await other.start() }
            #expect(error == .portInUse(port: port))
            #expect(error?.description.contains("127.0.0.1:\(port)") == true)
            #expect(await other.isRunning == false)
        }
    }

    @Test("listening errors are named after their cause: privileges, a port in use, anything else")
    func listenErrors() {
        #expect(
            FactServer.listenError(IOError(errnoCode: EACCES, reason: "bind"), port: 80) == .needsPrivileges(port: 80))
        #expect(FactServerError.needsPrivileges(port: 80).description.contains("ports below 1024 need privileges"))
        #expect(
            FactServer.listenError(IOError(errnoCode: EADDRINUSE, reason: "bind"), port: 8089) == .portInUse(port: 8089)
        )
        #expect(
            FactServer.listenError(IOError(errnoCode: EADDRNOTAVAIL, reason: "bind"), port: 8089)
                == .cannotListen(port: 8089, reason: "cannot assign requested address"))
    }

    @Test("HEAD is answered like GET without a body; other methods get 405 with Allow")
    func methods() async throws {
        try await withFactServer { _, baseURL in
            let head = try await httpRequest(baseURL.appendingPathComponent("health"), method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers.first(name: "Content-Type") == "application/json")
            let get = try await httpRequest(baseURL.appendingPathComponent("health"), method: .GET)
            #expect(head.headers.first(name: "Content-Length") == String(get.body.count))

            let post = try await httpRequest(baseURL.appendingPathComponent("fact"), method: .POST)
            #expect(post.status == 405)
            #expect(post.headers.first(name: "Allow") == "GET, HEAD")
        }
    }

    @Test(
        "malformed requests are answered 400 and closed",
        arguments: [
            "garbage bytes": "\u{01}\u{02}\u{03} not http at all\r\n\r\n",
            "HTTP/0.9": "GET /fact\r\n\r\n",
            "bad Content-Length": "GET /fact HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n",
            "two Content-Lengths": "GET /fact HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        ])
    func malformed(name: String, request: String) async throws {
        try await withFactServer { server, _ in
            let port = try #require(await server.port)
            let exchange = try await rawExchange(port: port, sending: Data(request.utf8))
            #expect(exchange.statusLine == "HTTP/1.1 400 Bad Request", "\(name)")
            #expect(exchange.closedByServer, "\(name)")
        }
    }

    @Test("a 100 KB request line or header is refused with 400 at once, and /health stays fast meanwhile")
    func hugeRequests() async throws {
        try await withFactServer { server, baseURL in
            let port = try #require(await server.port)
            let long = String(repeating: "a", count: 100_000)
            let requests = [
                "GET /\(long) HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /fact HTTP/1.1\r\nHost: x\r\nX-Long: \(long)\r\n\r\n",
            ]
            try await withThrowingTaskGroup(of: RawExchange.self) { group in
                for index in 0..<4 {
                    let request = Data(requests[index % 2].utf8)
                    group.addTask { try await rawExchange(port: port, sending: request) }
                }
                let health = try await httpGet(baseURL.appendingPathComponent("health"))
                #expect(health.status == 200)
                for try await exchange in group {
                    #expect(exchange.statusLine == "HTTP/1.1 400 Bad Request")
                    #expect(exchange.closedByServer)
                }
            }
        }
    }

    @Test("a 10 MB request line is refused with 400 by the header limit, and the connection closed")
    func tenMegabyteRequestLine() async throws {
        // After the 400 the server closes its side and stops reading; the connection goes at the
        // read timeout, shortened here. It is SwiftNIO's idle timer, on the wall clock: 5 s, and
        // the test asserts nothing of when it fires (the exchange waits up to 30 s for it).
        try await withFactServer(readTimeout: .seconds(5)) { server, _ in
            let port = try #require(await server.port)
            let total = 10 * 1024 * 1024
            var request = Data("GET /".utf8)
            request.append(Data(repeating: UInt8(ascii: "a"), count: total))
            request.append(Data(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let exchange = try await rawExchange(port: port, sending: request)
            // How much the kernel's buffers took before the server stopped reading (6.5 MB of
            // the 10 on an idle machine) is the kernel's business: it is not asserted.
            #expect(exchange.statusLine == "HTTP/1.1 400 Bad Request", "sent \(exchange.sent) bytes")
            #expect(exchange.closedByServer)
        }
    }

    @Test("a connection that sends half a request line and waits is closed after the read timeout")
    func partialRequestIsClosed() async throws {
        // SwiftNIO's idle timer, on the wall clock: 5 s, of which a busy machine can only make
        // more; the exchange waits up to 60 s, far longer, so the server must close first.
        try await withFactServer(readTimeout: .seconds(5)) { server, _ in
            let port = try #require(await server.port)
            let exchange = try await rawExchange(port: port, sending: Data("GET /fa".utf8), wait: .seconds(60))
            #expect(exchange.closedByServer)
            #expect(exchange.received.isEmpty)
        }
    }

    @Test("the drop fault closes the connection without a byte of answer")
    func dropFault() async throws {
        try await withFactServer(fault: .drop) { server, _ in
            let port = try #require(await server.port)
            let exchange = try await rawExchange(
                port: port, sending: Data("GET /fact HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(exchange.closedByServer)
            #expect(exchange.received.isEmpty)
        }
    }

    @Test("stop does not wait for a slow answer in progress", .timeLimit(.minutes(1)))
    func stopDuringSlowAnswer() async throws {
        // The slow answer waits on a clock nobody moves: it never comes by itself.
        let clock = ManualClock()
        let server = try FactServer(
            facts: FactServer.bundledFacts(), fault: .slow, slowResponseDelay: .seconds(3600), slowResponseClock: clock)
        let baseURL = try await server.start()
        let request = Task { try await makeService(baseURL, timeout: .seconds(3600)).fetchFact() }
        try await clock.waitForSleepers(1)  // the request reached the handler, which holds it
        await server.stop()  // would hang for good if stop waited for the slow answer
        let result = await request.result
        #expect(throws: FactServiceError.self) { try result.get() }
    }

    @Test("run serves until its task is cancelled, reporting the URL once listening")
    func runUntilCancelled() async throws {
        let server = try FactServer.bundled()
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        let running = Task { try await server.run { continuation.yield($0) } }
        var iterator = urls.makeAsyncIterator()
        let url = try #require(await iterator.next())
        let (status, _) = try await httpGet(url.appendingPathComponent("health"))
        #expect(status == 200)
        running.cancel()
        try await running.value
        #expect(await server.isRunning == false)
        let service = makeService(url, timeout: .seconds(30))
        await #expect(throws: FactServiceError.self) { try await service.fetchFact() }
    }

    @Test("an empty list of facts is rejected")
    func noFacts() {
        #expect(throws: FactServerError.self) { try FactServer(facts: []) }
    }
}
