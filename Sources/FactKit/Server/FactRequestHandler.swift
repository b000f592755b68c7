import Foundation
import WeftPrimitives

/// Answers the fact server's routes, applying the configured fault to every request.
///
/// Independent of the HTTP server: ``FactServer`` hands it the method, path and query of
/// each request and writes back the ``Outcome``. Copies share one ``Deck``: `/fact` deals
/// every fact once before any comes again, to all clients together.
package struct FactRequestHandler: Sendable {
    let facts: [String]
    /// What `/fact` deals from, shared by every copy of this handler.
    let deck: Locked<Deck>
    let fault: ServerFault?
    let slowResponseDelay: Duration
    /// What ``ServerFault/slow`` waits on: the continuous clock, or a clock a test moves.
    let slowResponseClock: any Clock<Duration>
    /// The process's metrics in the Prometheus text format, for `/metrics`; `nil` answers 404.
    var metrics: (@Sendable () -> [UInt8])?

    package init(
        facts: [String], fault: ServerFault?, slowResponseDelay: Duration,
        slowResponseClock: any Clock<Duration> = ContinuousClock(), metrics: (@Sendable () -> [UInt8])? = nil
    ) {
        self.facts = facts
        self.deck = Locked(Deck(count: facts.count))
        self.fault = fault
        self.slowResponseDelay = slowResponseDelay
        self.slowResponseClock = slowResponseClock
        self.metrics = metrics
    }

    static let defaultListLimit = 10
    /// The methods every route answers; `HEAD` is answered like `GET`, without the body.
    static let allowedMethods = "GET, HEAD"

    /// The routes served, as spans name them.
    static let routes: Set<String> = ["/fact", "/facts", "/health", "/metrics"]

    /// The route `path` is served by, or `nil` for a path answered `404`.
    static func route(of path: String) -> String? {
        routes.contains(path) ? path : nil
    }

    /// What to send back.
    enum Outcome: Sendable, Equatable {
        /// An answer: status, content type and body.
        case respond(FactResponse)
        /// Close the connection without answering (the `drop` fault).
        case drop
    }

    /// The answer to `method path?query`; `query` holds the decoded query items in order.
    func handle(method: String, path: String, query: [(name: String, value: String)]) async throws -> Outcome {
        // The operator's view of the server is never faulty: a fault is for the app's clients.
        if path == "/metrics", let metrics, method == "GET" || method == "HEAD" {
            return .respond(
                FactResponse(
                    status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Data(metrics())))
        }
        switch fault {
        case .http500:
            return .respond(.json(["error": "internal server error (fault mode http-500)"], status: 500))
        case .garbage:
            return .respond(
                FactResponse(
                    status: 200, contentType: "text/plain; charset=utf-8",
                    body: Data("~~ meow? <this is not JSON> ~~\n".utf8)))
        case .drop:
            return .drop
        case .slow:
            try await slowResponseClock.sleep(for: slowResponseDelay)
            return .respond(route(method: method, path: path, query: query))
        case .stuckShutdown, nil:
            return .respond(route(method: method, path: path, query: query))
        }
    }

    private func route(method: String, path: String, query: [(name: String, value: String)]) -> FactResponse {
        guard method == "GET" || method == "HEAD" else {
            var response = FactResponse.json(["error": "only GET and HEAD are supported"], status: 405)
            response.allow = Self.allowedMethods
            return response
        }
        switch path {
        case "/fact":
            // `facts` is validated non-empty by `FactServer.init`.
            let index = deck.withLock { deck in
                var generator = SystemRandomNumberGenerator()
                return deck.deal(using: &generator)
            }
            return .encoded(CatFact(fact: index.map { facts[$0] } ?? ""))
        case "/facts":
            switch listLimit(query.last { $0.name == "limit" }?.value) {
            case .success(let limit):
                return .encoded(FactList(data: facts.shuffled().prefix(limit).map { CatFact(fact: $0) }))
            case .failure(let problem):
                return .json(["error": problem.reason], status: 400)
            }
        case "/health":
            return .encoded(Health(status: "ok", facts: facts.count))
        default:
            return .json(["error": "not found; routes are /fact, /facts?limit=N and /health"], status: 404)
        }
    }

    /// The order `/fact` serves facts in: shuffled, each once, then shuffled again, never the
    /// same fact twice in a row. A reader pressing "next" sees a new fact until all have been
    /// shown, and two facts fetched one after the other always differ (the app's history lists
    /// both).
    package struct Deck: Sendable {
        /// How many facts there are.
        let count: Int
        /// The indices still to deal, the next one last.
        private var remaining: [Int] = []
        /// The index dealt last.
        private var last: Int?

        package init(count: Int) {
            self.count = max(count, 0)
        }

        /// The next fact's index, or `nil` when there are no facts.
        package mutating func deal(using generator: inout some RandomNumberGenerator) -> Int? {
            if remaining.isEmpty {
                guard count > 0 else { return nil }
                remaining = Array(0..<count).shuffled(using: &generator)
                // A new round does not start with the fact the last round ended on.
                if count > 1, remaining.last == last {
                    remaining.swapAt(remaining.count - 1, Int.random(in: 0..<(remaining.count - 1), using: &generator))
                }
            }
            last = remaining.popLast()
            return last
        }
    }

    /// Why a `limit` was refused, for the 400 answer.
    struct LimitProblem: Error, Equatable { var reason: String }

    /// How many facts `/facts?limit=text` lists: ``defaultListLimit`` when absent, at most the
    /// number of facts (a larger number, however large, is clamped), at least 1.
    func listLimit(_ text: String?) -> Result<Int, LimitProblem> {
        guard let text else { return .success(min(Self.defaultListLimit, facts.count)) }
        let digits = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(
                LimitProblem(reason: "limit must be a whole number from 1 up, got \"\(Self.quoted(text))\""))
        }
        let isNegative = text.hasPrefix("-") && digits.contains { $0 != "0" }
        guard !isNegative, digits.contains(where: { $0 != "0" }) else {
            return .failure(LimitProblem(reason: "limit must be at least 1, got \(Self.quoted(text))"))
        }
        // A number too large for Int is still a number: clamp it like any other.
        return .success(min(Int(digits) ?? Int.max, facts.count))
    }

    /// `text` cut to 60 characters for an error message.
    static func quoted(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    private struct FactList: Encodable { var data: [CatFact] }
    private struct Health: Encodable {
        var status: String
        var facts: Int
    }
}

/// One answer of the fact server, before the HTTP server writes it.
struct FactResponse: Sendable, Equatable {
    var status: Int
    var contentType: String
    var body: Data
    /// The `Allow` header of a `405` answer.
    var allow: String?

    init(status: Int, contentType: String, body: Data, allow: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.allow = allow
    }

    static func encoded(_ value: some Encodable, status: Int = 200) -> FactResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return FactResponse(
                status: 500, contentType: "text/plain; charset=utf-8", body: Data("cannot encode the answer\n".utf8))
        }
        return FactResponse(status: status, contentType: "application/json", body: body)
    }

    static func json(_ object: [String: String], status: Int) -> FactResponse {
        encoded(object, status: status)
    }
}
