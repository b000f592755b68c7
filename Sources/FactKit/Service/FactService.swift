public import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import WeftPrimitives

/// A client for catfact.ninja's contract: `GET {base}/fact` → `{"fact": String, "length": Int}`.
///
/// Requests go through an AsyncHTTPClient `HTTPClient` the caller owns (one per app, shut
/// down by its owner): SwiftNIO underneath, no cache, no cookies, nothing written to disk or
/// stderr. The timeout is exact (it is the request's deadline, not a whole number of seconds),
/// and the size limit is enforced while the body streams in, so an oversized answer is never
/// held in memory. Every failure is a ``FactServiceError``.
///
/// ```swift
/// let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
/// let service = FactService(baseURL: URL(string: "https://catfact.ninja")!, timeout: .seconds(5), client: client)
/// let fact = try await service.fetchFact()
/// try await client.shutdown()
/// ```
public final class FactService: Sendable {
    /// The default limit on the size of one response body: 64 KiB.
    public static let defaultMaximumBodySize = 64 * 1024

    /// The server's base URL; requests go to `{baseURL}/fact`.
    public let baseURL: URL
    /// How long one request may take, from sending it to the last byte of the body.
    public let timeout: Duration
    /// The largest body accepted, in bytes.
    let maximumBodySize: Int
    /// The HTTP client requests go through; its owner shuts it down.
    let client: HTTPClient
    /// What ends a request at its timeout: the continuous clock, unless a test brings its own.
    let timer: RequestTimer

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL, such as `https://catfact.ninja`.
    ///   - timeout: The per-request timeout, covering the connection, the answer and its body.
    ///   - client: The HTTP client to send requests through; the caller shuts it down.
    ///   - maximumBodySize: The largest response body accepted, in bytes.
    public convenience init(
        baseURL: URL, timeout: Duration, client: HTTPClient,
        maximumBodySize: Int = FactService.defaultMaximumBodySize
    ) {
        self.init(
            baseURL: baseURL, timeout: timeout, client: client, maximumBodySize: maximumBodySize, timer: .continuous)
    }

    /// Creates a client whose timeout runs on `timer`: a test's timer ends requests when the
    /// test moves its clock.
    init(baseURL: URL, timeout: Duration, client: HTTPClient, maximumBodySize: Int, timer: RequestTimer) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.client = client
        self.maximumBodySize = maximumBodySize
        self.timer = timer
    }

    /// Makes the HTTP client for an app: on SwiftNIO's shared event-loop group, following a
    /// few redirects, decompressing nothing, and failing at once when a connection cannot be
    /// made (a refused connection is reported as such, not retried until the timeout). Its
    /// owner calls `shutdown()` once done with it.
    public static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 3, allowCycles: false),
            decompression: .disabled)
        configuration.httpVersion = .http1Only
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// The URL a fact is requested from: `{baseURL}/fact`.
    var factURL: URL { baseURL.appendingPathComponent("fact") }

    /// Fetches one fact.
    ///
    /// - Throws: ``FactServiceError`` describing what went wrong.
    func fetchFact() async throws(FactServiceError) -> CatFact {
        let url = factURL
        let transportDeadline = ContinuousClock.now + timer.transportLimit(timeout)
        let data = try await withDeadline(timer.start(timeout)) { () async throws(FactServiceError) -> Data in
            try await self.get(url, transportDeadline: transportDeadline)
        }
        return try Self.decodeFact(from: data, url: url)
    }

    /// Sends `GET url` and collects a `200` answer's body, at most ``maximumBodySize`` bytes;
    /// AsyncHTTPClient gives up on its own at `transportDeadline`.
    private func get(_ url: URL, transportDeadline: ContinuousClock.Instant) async throws(FactServiceError) -> Data {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "weft")
        do {
            let remaining = ContinuousClock.now.duration(to: transportDeadline)
            let response = try await client.execute(request, timeout: Self.transportTimeout(remaining))
            return try await Self.body(of: response, url: url, maximumBodySize: maximumBodySize)
        } catch let error as FactServiceError {
            throw error
        } catch {
            throw Self.mapTransportError(error, url: url, timeout: timeout)
        }
    }

    /// The body of a `200` answer, at most `maximumBodySize` bytes: a larger `Content-Length`
    /// is refused before a byte of the body is read, and a body without one is refused as soon
    /// as it grows past the limit.
    ///
    /// - Throws: ``FactServiceError/httpStatus(url:code:)``,
    ///   ``FactServiceError/bodyTooLarge(url:limit:)``, or the body stream's own error.
    package static func body(of response: HTTPClientResponse, url: URL, maximumBodySize: Int) async throws -> Data {
        guard response.status == .ok else {
            throw FactServiceError.httpStatus(url: url, code: Int(response.status.code))
        }
        if let declared = response.headers.first(name: "Content-Length").flatMap(Int.init), declared > maximumBodySize {
            throw FactServiceError.bodyTooLarge(url: url, limit: maximumBodySize)
        }
        do {
            return Data(try await response.body.collect(upTo: maximumBodySize).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw FactServiceError.bodyTooLarge(url: url, limit: maximumBodySize)
        }
    }

    /// The time limit AsyncHTTPClient is given when `remaining` is left: exact to the
    /// nanosecond (a sub-second timeout is not rounded to whole seconds), never negative.
    static func transportTimeout(_ remaining: Duration) -> TimeAmount {
        .nanoseconds(max(0, remaining.saturatingNanoseconds))
    }

    /// Runs `body`, failing with ``FactServiceError/timedOut(url:after:)`` when `sleep` (the
    /// timer's sleep to the deadline) returns; `body` is cancelled then, which cancels its
    /// request and releases its connection.
    private func withDeadline<Value: Sendable>(
        _ sleep: @escaping @Sendable () async throws -> Void,
        _ body: @escaping @Sendable () async throws(FactServiceError) -> Value
    ) async throws(FactServiceError) -> Value {
        let url = factURL
        let timeout = timeout
        do {
            return try await withThrowingTaskGroup(of: Value.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await sleep()
                    throw FactServiceError.timedOut(url: url, after: timeout)
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw FactServiceError.cancelled(url: url) }
                return first
            }
        } catch let error as FactServiceError {
            throw error
        } catch {
            throw Task.isCancelled ? .cancelled(url: url) : .transport(url: url, reason: "\(error)")
        }
    }

    /// Decodes `{"fact": String, "length": Int}`, explaining what is wrong otherwise. The body is
    /// read by the strict JSON reader environments files go through: a malformed number or a key
    /// given twice is refused, not settled by whichever value a lenient decoder keeps.
    package static func decodeFact(from data: Data, url: URL) throws(FactServiceError) -> CatFact {
        let root: JSONDocument.Node
        do {
            root = try JSONDocument.parse(Array(data))
        } catch {
            let preview = JSONDocument.quoted(String(decoding: data.prefix(40), as: UTF8.self))
            throw .invalidBody(url: url, reason: "not JSON: \"\(preview)\" (\(error))")
        }
        guard case .object = root.value else {
            throw .invalidBody(url: url, reason: "expected a JSON object, got \(root.summary)")
        }
        guard let fact = root["fact"], case .string(let text) = fact.value else {
            throw .invalidBody(
                url: url,
                reason: root["fact"].map { "\"fact\" is \($0.summary), not a string" } ?? "\"fact\" is missing")
        }
        guard let lengthNode = root["length"], case .number(let length) = lengthNode.value, length.rounded() == length,
            length >= 0, length < Double(Int.max)
        else {
            throw .invalidBody(
                url: url,
                reason: root["length"].map { "\"length\" is \($0.summary), not an integer" } ?? "\"length\" is missing")
        }
        return CatFact(fact: text, length: Int(length))
    }

    /// Turns AsyncHTTPClient's and SwiftNIO's errors into the service's own.
    static func mapTransportError(_ error: any Error, url: URL, timeout: Duration) -> FactServiceError {
        if error is CancellationError { return .cancelled(url: url) }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return .timedOut(url: url, after: timeout)
            case .remoteConnectionClosed:
                return .connectionDropped(url: url)
            case .cancelled:
                return .cancelled(url: url)
            case .alreadyShutdown:
                return .transport(url: url, reason: "the HTTP client was already shut down")
            default:
                return .transport(url: url, reason: error.description)
            }
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return .unreachable(url: url, reason: "connection refused")
            case ECONNRESET, EPIPE: return .connectionDropped(url: url)
            case ENETUNREACH, EHOSTUNREACH: return .unreachable(url: url, reason: "no route to the host")
            default: return .transport(url: url, reason: error.description)
            }
        }
        if error is NIOConnectionError || error is SocketAddressError {
            return .unreachable(url: url, reason: Self.describeConnectionFailure(error))
        }
        if error is HTTPParserError {
            return .invalidBody(url: url, reason: "the answer is not valid HTTP")
        }
        return .transport(url: url, reason: String(describing: error))
    }

    private static func describeConnectionFailure(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return "unknown host"
            }
            if let first = error.connectionErrors.first?.error as? IOError, first.errnoCode == ECONNREFUSED {
                return "connection refused"
            }
            return "cannot connect"
        }
        return "unknown host"
    }
}
