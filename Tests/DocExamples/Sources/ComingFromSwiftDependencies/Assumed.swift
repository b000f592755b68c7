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

protocol Analytics: Sendable {
    func track(_ event: String)
}
struct LiveAnalytics: Analytics {
    func track(_ event: String) { preconditionFailure("analytics sent from a test") }
}
struct NoAnalytics: Analytics {
    func track(_ event: String) {}
}
