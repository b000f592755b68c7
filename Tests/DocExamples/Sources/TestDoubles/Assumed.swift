// The article's own types, which it names rather than shows.
import Weft

protocol HTTPClient: Sendable {
    func get(_ path: String) async throws -> String
}
struct LiveHTTPClient: HTTPClient {
    struct SentForReal: Error {}
    func get(_ path: String) async throws -> String { throw SentForReal() }
}
struct FakeHTTPClient: HTTPClient {
    func get(_ path: String) async throws -> String { "a fact about cats" }
}
struct DemoHTTPClient: HTTPClient {
    func get(_ path: String) async throws -> String { "a demo fact" }
}

protocol Analytics: Sendable {
    func track(_ event: String)
}
struct LiveAnalytics: Analytics {
    func track(_ event: String) {}
}
struct NoAnalytics: Analytics {
    func track(_ event: String) {}
}

/// Shows a fact: what a test of the whole app's wiring exercises.
struct FactModel: Sendable {
    let client: any HTTPClient
    let analytics: any Analytics
    func load() async throws -> String {
        analytics.track("fact shown")
        return try await client.get("/fact")
    }
}
