import Foundation
import Testing
@testable import FactKit

@Suite("FactServer serves bundled facts on loopback")
struct FactServerTests {
    private struct FactList: Decodable { var data: [CatFact] }
    private struct Health: Decodable { var status: String; var facts: Int }

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

            for (limit, expected) in [("3", 3), ("0", 1), ("-5", 1), ("100000", facts.count)] {
                let url = try #require(URL(string: "\(baseURL.absoluteString)/facts?limit=\(limit)"))
                let (status, body) = try await httpGet(url)
                #expect(status == 200)
                let list = try JSONDecoder().decode(FactList.self, from: body)
                #expect(list.data.count == expected, "limit=\(limit)")
                #expect(Set(list.data.map(\.fact)).count == expected, "no repeats for limit=\(limit)")
            }
            let (badStatus, _) = try await httpGet(try #require(URL(string: "\(baseURL.absoluteString)/facts?limit=lots")))
            #expect(badStatus == 400)

            let (healthStatus, healthBody) = try await httpGet(baseURL.appendingPathComponent("health"))
            #expect(healthStatus == 200)
            let health = try JSONDecoder().decode(Health.self, from: healthBody)
            #expect(health.status == "ok")
            #expect(health.facts == facts.count)

            let (missing, _) = try await httpGet(baseURL.appendingPathComponent("nope"))
            #expect(missing == 404)
        }
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

    @Test("a port already in use gives cannotListen naming the port")
    func portInUse() async throws {
        try await withFactServer { server, _ in
            let port = try #require(await server.port)
            let other = try FactServer.bundled(port: port)
            let error = await #expect(throws: FactServerError.self) { try await other.start() }
            guard case .cannotListen(let failedPort, _)? = error else { Issue.record("got \(String(describing: error))"); return }
            #expect(failedPort == port)
            #expect(error?.description.contains("127.0.0.1:\(port)") == true)
            #expect(await other.isRunning == false)
        }
    }

    @Test("stop does not wait for a slow answer in progress")
    func stopDuringSlowAnswer() async throws {
        let server = try FactServer.bundled(fault: .slow, slowResponseDelay: .seconds(3600))
        let baseURL = try await server.start()
        let request = Task { try await FactService(baseURL: baseURL, timeout: .seconds(3600)).fetchFact() }
        // Give the first request time to reach the handler without a sleep: a second request
        // that times out proves the server held at least one slow answer open meanwhile.
        _ = try? await FactService(baseURL: baseURL, timeout: .milliseconds(200)).fetchFact()
        await server.stop()  // would hang for an hour if stop waited for the slow answer
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
        let service = FactService(baseURL: url, timeout: .seconds(5))
        await #expect(throws: FactServiceError.self) { try await service.fetchFact() }
    }

    @Test("an empty list of facts is rejected")
    func noFacts() {
        #expect(throws: FactServerError.self) { try FactServer(facts: []) }
    }
}
