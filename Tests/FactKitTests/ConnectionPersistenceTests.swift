import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import FactKit

/// `weft serve`'s connection management (RFC 9112 §9.3) in a channel of SwiftNIO's HTTP/1
/// decoder and encoder around ``ConnectionPersistenceHandler``: what the request handler is told
/// and what the client reads. `scripts/e2e` loads the real server with ab and h2load.
@Suite struct ConnectionPersistenceTests {
    /// A request's head as the request handler sees it, and the answer's head as the client
    /// reads it, for each request in `requests` (sent together, as a pipelining client does).
    static func exchange(_ requests: String, interim: Bool = false) throws -> [(
        request: HTTPRequestHead, answer: String
    )] {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            HTTPResponseEncoder(),
            ByteToMessageHandler(HTTPRequestDecoder()),
            ConnectionPersistenceHandler(),
        ])
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        try channel.writeInbound(ByteBuffer(string: requests))
        var exchanges: [(HTTPRequestHead, String)] = []
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            guard case .head(let head) = part else { continue }
            if interim {
                try channel.writeOutbound(HTTPServerResponsePart.head(.init(version: .http1_1, status: .continue)))
            }
            let answer = HTTPResponseHead(
                version: .http1_1, status: .ok, headers: ["Content-Length": "2", "Content-Type": "application/json"])
            try channel.writeOutbound(HTTPServerResponsePart.head(answer))
            try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "{}"))))
            try channel.writeOutbound(HTTPServerResponsePart.end(nil))
            var written = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { written += String(buffer: buffer) }
            // The final answer's head: after any interim one.
            let finalHead = written.components(separatedBy: "\r\n\r\n").dropFirst(interim ? 1 : 0).first ?? ""
            exchanges.append((head, finalHead))
        }
        return exchanges
    }

    static func connectionField(of answer: String) -> String? {
        answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("connection:") }
            .map { $0.dropFirst("connection:".count).trimmingCharacters(in: .whitespaces) }
    }

    @Test(
        "each version and Connection field is told the RFC's persistence, and the answer says it",
        arguments: [
            ("HTTP/1.0", nil, "close", "close"),
            ("HTTP/1.0", "keep-alive", "keep-alive", "keep-alive"),
            ("HTTP/1.0", "Keep-Alive", "Keep-Alive", "keep-alive"),
            ("HTTP/1.0", "close", "close", "close"),
            ("HTTP/1.1", nil, nil, nil),
            ("HTTP/1.1", "keep-alive", "keep-alive", nil),
            ("HTTP/1.1", "close", "close", "close"),
            ("HTTP/1.1", "Close", "close", "close"),
            ("HTTP/1.1", "Upgrade, close", "close", "close"),
        ] as [(String, String?, String?, String?)])
    func persistence(version: String, asked: String?, handlerSees: String?, answerSays: String?) throws {
        let field = asked.map { "Connection: \($0)\r\n" } ?? ""
        let exchanges = try Self.exchange("GET /fact \(version)\r\nHost: x\r\n\(field)\r\n")
        try #require(exchanges.count == 1)
        #expect(exchanges[0].request.headers["connection"].first == handlerSees)
        #expect(exchanges[0].answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "RFC 9110 §2.5: the server's own version")
        #expect(Self.connectionField(of: exchanges[0].answer) == answerSays)
    }

    @Test("pipelined requests are answered in order, each with its own persistence")
    func pipelined() throws {
        let exchanges = try Self.exchange(
            "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /c HTTP/1.0\r\n\r\n")
        #expect(exchanges.map(\.request.uri) == ["/a", "/b", "/c"])
        #expect(exchanges.map { Self.connectionField(of: $0.answer) } == ["keep-alive", nil, "close"])
    }

    @Test("an interim answer (100 Continue) leaves the final answer to say the persistence")
    func interim() throws {
        let exchanges = try Self.exchange("POST /fact HTTP/1.0\r\nContent-Length: 0\r\n\r\n", interim: true)
        try #require(exchanges.count == 1)
        #expect(Self.connectionField(of: exchanges[0].answer) == "close")
    }

    @Test("an answer that closes the connection itself keeps saying so, to a keep-alive HTTP/1.0 client too")
    func answerThatCloses() {
        var answer = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Connection": "Close"])
        ConnectionPersistence.keepAlive(toldInAnswer: true).mark(&answer)
        #expect(answer.headers["connection"] == ["Close"])
        var plain = HTTPResponseHead(version: .http1_1, status: .ok)
        ConnectionPersistence.keepAlive(toldInAnswer: true).mark(&plain)
        #expect(plain.headers["connection"] == ["keep-alive"])
    }
}
