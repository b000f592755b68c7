import HummingbirdCore
import Logging
package import NIOCore
package import NIOHTTP1

/// HTTP/1.1's connection management (RFC 9112 §9.3) for every client, HTTP/1.0 ones included.
///
/// Hummingbird keeps a connection open unless the request's `Connection` field is exactly
/// `close`, and the version-independent request it hands on no longer says which HTTP version
/// the client spoke. So an HTTP/1.0 client, which expects the close that its version implies
/// (ApacheBench waits for it), would wait forever. This handler sits where the version is still
/// known — between SwiftNIO's HTTP/1 decoder and the conversion to HTTP types — and decides
/// persistence as the RFC does:
///
/// | request | connection |
/// |---|---|
/// | HTTP/1.1 | kept, unless `Connection` lists `close` (any case) |
/// | HTTP/1.0 | closed, unless `Connection` lists `keep-alive`; then kept, and the answer says so |
///
/// A request that closes reaches Hummingbird with `Connection: close` exactly (so it closes after
/// answering), and its answer carries `Connection: close`. The answer's status line stays
/// `HTTP/1.1` for every client (RFC 9110 §2.5: the highest version the server conforms to).
package final class ConnectionPersistenceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias InboundOut = HTTPServerRequestPart
    package typealias OutboundIn = HTTPServerResponsePart
    package typealias OutboundOut = HTTPServerResponsePart

    /// Whether each request read and not yet answered keeps its connection, oldest first
    /// (a client may pipeline requests; they are answered in order).
    private var persistence = CircularBuffer<ConnectionPersistence>()

    package init() {}

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let decided = ConnectionPersistence(request: head)
        persistence.append(decided)
        if decided == .close { head.headers.replaceOrAdd(name: "connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An interim answer (1xx) precedes the final one to the same request. Hummingbird answers
        // a request it cannot read (`400`, then closes) after the answers to those before it, so
        // such an answer finds none of its own here and is left as it is.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200, !persistence.isEmpty else {
            context.write(data, promise: promise)
            return
        }
        persistence.removeFirst().mark(&head)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

/// Whether a connection outlives the request just read (RFC 9112 §9.3), and what the answer
/// says about it.
enum ConnectionPersistence: Equatable, Sendable {
    /// Closed after the answer, which says `Connection: close`.
    case close
    /// Kept; an HTTP/1.0 client is told so (`Connection: keep-alive`), since it assumes a close.
    case keepAlive(toldInAnswer: Bool)

    /// What `request` asks for: SwiftNIO's reading of its version and `Connection` field.
    init(request: HTTPRequestHead) {
        if !request.isKeepAlive {
            self = .close
        } else {
            self = .keepAlive(toldInAnswer: request.version == .http1_0)
        }
    }

    /// Sets the answer's `Connection` field to match.
    func mark(_ answer: inout HTTPResponseHead) {
        switch self {
        case .close: answer.headers.replaceOrAdd(name: "connection", value: "close")
        case .keepAlive(toldInAnswer: true):
            // An answer that closes the connection itself says so, and is left to.
            guard !answer.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) else {
                return
            }
            answer.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        case .keepAlive(toldInAnswer: false): break
        }
    }
}

/// Hummingbird's HTTP/1 child channel with ``ConnectionPersistenceHandler`` placed right after
/// SwiftNIO's request decoder, where the request's HTTP version is still known.
struct PersistenceAwareHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    let base: HTTP1Channel

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(ConnectionPersistenceHandler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
