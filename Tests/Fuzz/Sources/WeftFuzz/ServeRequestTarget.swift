import FactKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization

/// A request to `weft serve`, through the server's responder (its tracing and logging
/// middleware and the request handler), in process: no socket.
///
/// The input is a byte choosing the server's fault (none, `http-500`, `garbage`, `drop`,
/// `slow` with no delay) and the HTTP version (1.1, 1.0), then the method on the first line, the request target on the
/// second, header lines up to an empty line, and the body. Every answer is one the server
/// documents: a fact or a list that the client's decoder reads, `400` for a bad limit with
/// the reason, `404`, `405` with `Allow`, the fault's own; `HEAD` has no body. The same head,
/// as bytes on the wire in that version, goes through SwiftNIO's decoder and the server's
/// ``ConnectionPersistenceHandler``: the connection persists as RFC 9112 §9.3 says.
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
        checkPersistence(
            head: lines, version: (first / UInt8(faults.count)) % 2 == 0 ? .http1_1 : .http1_0)
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

    /// The request line and header lines of `head` in `version`, through SwiftNIO's HTTP/1
    /// decoder and ``ConnectionPersistenceHandler``, answered `200`: a request that says
    /// `close`, or an HTTP/1.0 one that does not say `keep-alive`, closes; the answer says
    /// `close` exactly when the request handler was told `close` (so Hummingbird closes); a kept
    /// HTTP/1.0 connection is told `keep-alive`.
    static func checkPersistence(head: [Substring], version: HTTPVersion) {
        let wire =
            "\(head[0]) \(head[1]) HTTP/\(version.major).\(version.minor)\r\n"
            + head.dropFirst(2).map { "\($0)\r\n" }.joined() + "\r\n"
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        do {
            try channel.pipeline.syncOperations.addHandlers([
                HTTPResponseEncoder(), ByteToMessageHandler(HTTPRequestDecoder()), ConnectionPersistenceHandler(),
            ])
            try channel.writeInbound(ByteBuffer(string: wire))
        } catch {
            return  // not a request SwiftNIO reads: answered 400 and closed by Hummingbird
        }
        guard case .head(let request)? = try? channel.readInbound(as: HTTPServerRequestPart.self) else { return }
        let tokens = request.headers["connection"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let told = request.headers["connection"]
        let answer = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "0"])
        guard (try? channel.writeOutbound(HTTPServerResponsePart.head(answer))) != nil,
            let bytes = try? channel.readOutbound(as: ByteBuffer.self)
        else { fuzzFailure("the answer's head was not written") }
        let fields = String(buffer: bytes).lowercased().split(separator: "\r\n").filter { $0.hasPrefix("connection:") }
        let says = fields.map { $0.dropFirst("connection:".count).trimmingCharacters(in: .whitespaces) }
        let closes = told == ["close"]
        require(!tokens.contains("close") || closes, "a request that says close was kept: \(told)")
        require(version == .http1_1 || tokens.contains("keep-alive") || closes, "HTTP/1.0 kept without keep-alive")
        require(says == (closes ? ["close"] : version == .http1_0 ? ["keep-alive"] : []), "the answer says \(says)")
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
        case .slow, .stuckShutdown, nil:
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
