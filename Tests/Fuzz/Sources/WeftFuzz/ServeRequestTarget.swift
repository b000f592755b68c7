import FactKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

/// A request to `weft serve`, through the server's responder (its tracing and logging
/// middleware and the request handler), in process: no socket.
///
/// The input is a byte choosing the server's fault (none, `http-500`, `garbage`, `drop`,
/// `slow` with no delay), then the method on the first line, the request target on the
/// second, header lines up to an empty line, and the body. Every answer is one the server
/// documents: a fact or a list that the client's decoder reads, `400` for a bad limit with
/// the reason, `404`, `405` with `Allow`, the fault's own; `HEAD` has no body.
enum ServeRequestTarget {
    static let name = "serve-request"
    static let facts = ["Cats sleep a lot.", "A group of cats is a clowder.", "Cats have five toes on each front paw."]
    static let metrics: [UInt8] = Array("weft_startup_runs_total{outcome=\"succeeded\"} 1\n".utf8)
    static let faults: [ServerFault?] = [nil, .http500, .garbage, .drop, .slow]
    static let logger = Logger(label: "weft.fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    static let run: FuzzTarget = { bytes in
        guard let first = bytes.first else { return }
        let fault = faults[Int(first) % faults.count]
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        let (head, body) =
            text.range(of: "\n\n").map { (text[..<$0.lowerBound], text[$0.upperBound...]) } ?? (text[...], "")
        let lines = head.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, let method = HTTPRequest.Method(String(lines[0])) else { return }
        let target = String(lines[1])
        var fields = HTTPFields()
        for line in lines.dropFirst(2) {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                continue
            }
            fields.append(HTTPField(name: name, value: String(line[line.index(after: colon)...])))
        }
        let request = Request(
            head: HTTPRequest(
                method: method, scheme: "http", authority: "127.0.0.1", path: target, headerFields: fields),
            body: RequestBody(buffer: ByteBuffer(string: String(body))))
        let handler = FactRequestHandler(
            facts: facts, fault: fault, slowResponseDelay: .zero, metrics: { metrics })
        let (status, headers, answer, closed) = blocking {
            let channel = EmbeddedChannel()
            let context = FactRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            do {
                let response = try await FactServer.makeResponder(handler: handler).respond(
                    to: request, context: context)
                let collected = Collected()
                try await response.body.write(Collector(into: collected))
                let closed = !channel.isActive
                // Closing breaks the channel's cycle with its pipeline (else each request leaks it).
                _ = try? channel.finish(acceptAlreadyClosed: true)
                return (response.status.code, response.headers, collected.bytes, closed)
            } catch {
                fuzzFailure("the responder threw: \(error)")
            }
        }
        check(
            method: method, path: request.uri.path, fault: fault, status: status, headers: headers, body: answer,
            closed: closed)
    }

    static func check(
        method: HTTPRequest.Method, path: String, fault: ServerFault?,
        status: Int, headers: HTTPFields, body: [UInt8], closed: Bool
    ) {
        let readable = method == .get || method == .head
        let json = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        if method == .head { require(body.isEmpty, "a HEAD answer with a body") }
        if path == "/metrics" && readable {
            require(status == 200 && (method == .head || body == metrics), "/metrics did not answer the metrics")
            return
        }
        switch fault {
        case .http500:
            require(status == 500, "the http-500 fault answered \(status)")
            return
        case .garbage:
            require(status == 200 && (method == .head || json == nil), "the garbage fault answered JSON")
            return
        case .drop:
            require(closed, "the drop fault left the connection open")
            return
        case .slow, nil:
            break
        }
        guard readable else {
            require(status == 405 && headers[.allow] == "GET, HEAD", "\(method) answered \(status) without Allow")
            return
        }
        switch path {
        case "/fact":
            require(status == 200, "/fact answered \(status)")
            if method == .get {
                do {
                    let fact = try FactService.decodeFact(from: Data(body), url: URL(string: "http://127.0.0.1/fact")!)
                    require(facts.contains(fact.fact), "/fact served a fact it does not have")
                } catch {
                    fuzzFailure("the client cannot read /fact's answer: \(error)")
                }
            }
        case "/facts":
            require(status == 200 || status == 400, "/facts answered \(status)")
            if method == .get, status == 200 {
                let list = json?["data"] as? [[String: Any]]
                require(list.map { !$0.isEmpty && $0.count <= facts.count } == true, "/facts listed wrong")
            }
            if method == .get, status == 400 {
                require((json?["error"] as? String)?.contains("limit") == true, "a 400 that does not say why")
            }
        case "/health":
            require(status == 200, "/health answered \(status)")
        default:
            require(status == 404, "\(path) answered \(status), not 404")
        }
    }
}

/// The bytes a response body writes.
final class Collected: Sendable {
    private let written = Mutex<[UInt8]>([])
    var bytes: [UInt8] { written.withLock { $0 } }
    func append(_ buffer: ByteBuffer) { written.withLock { $0 += buffer.readableBytesView } }
}

struct Collector: ResponseBodyWriter {
    let into: Collected
    mutating func write(_ buffer: ByteBuffer) async throws { into.append(buffer) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
