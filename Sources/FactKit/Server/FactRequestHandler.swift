import FlyingFox
import Foundation

/// Answers the fact server's routes, applying the configured fault to every request.
struct FactRequestHandler: HTTPHandler {
    let facts: [String]
    let fault: ServerFault?
    let slowResponseDelay: Duration

    static let defaultListLimit = 10

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        switch fault {
        case .http500:
            return json(["error": "internal server error (fault mode http-500)"], status: .internalServerError)
        case .garbage:
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: Data("~~ meow? <this is not JSON> ~~\n".utf8))
        case .drop:
            return HTTPResponse(webSocket: DroppingHandler())
        case .slow:
            try await Task.sleep(for: slowResponseDelay)
            return route(request)
        case nil:
            return route(request)
        }
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == .GET else {
            return json(["error": "only GET is supported"], status: .methodNotAllowed)
        }
        switch request.path {
        case "/fact":
            // `facts` is validated non-empty by `FactServer.init`.
            let text = facts.randomElement() ?? ""
            return encoded(CatFact(fact: text))
        case "/facts":
            let requested = request.query["limit"].map { Int($0) } ?? FactRequestHandler.defaultListLimit
            guard let requested else {
                return json(["error": "limit must be an integer"], status: .badRequest)
            }
            let limit = min(max(requested, 1), facts.count)
            return encoded(FactList(data: facts.shuffled().prefix(limit).map { CatFact(fact: $0) }))
        case "/health":
            return encoded(Health(status: "ok", facts: facts.count))
        default:
            return json(["error": "not found; routes are /fact, /facts?limit=N and /health"], status: .notFound)
        }
    }

    private struct FactList: Encodable { var data: [CatFact] }
    private struct Health: Encodable { var status: String; var facts: Int }

    private func encoded(_ value: some Encodable, status: HTTPStatusCode = .ok) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return HTTPResponse(statusCode: .internalServerError)
        }
        return HTTPResponse(statusCode: status, headers: [.contentType: "application/json"], body: body)
    }

    private func json(_ object: [String: String], status: HTTPStatusCode) -> HTTPResponse {
        encoded(object, status: status)
    }
}

/// Makes FlyingFox close the connection having written nothing.
///
/// FlyingFox asks a WebSocket handler for its frames *before* writing the response head, and
/// closes the connection when that throws, so the client sees a connection closed with no
/// response at all — the `drop` fault.
struct DroppingHandler: WSHandler {
    struct Dropped: Error {}

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        throw Dropped()
    }
}
