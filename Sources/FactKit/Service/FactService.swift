public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client for catfact.ninja's contract: `GET {base}/fact` → `{"fact": String, "length": Int}`.
///
/// Uses an ephemeral `URLSession` (no cache, no cookies, nothing written to disk or stderr),
/// one per service. Every failure is a ``FactServiceError``.
///
/// ```swift
/// let service = FactService(baseURL: URL(string: "https://catfact.ninja")!, timeout: .seconds(5))
/// let fact = try await service.fetchFact()
/// ```
public final class FactService: Sendable {
    /// The default limit on the size of one response body: 64 KiB.
    public static let defaultMaximumBodySize = 64 * 1024

    /// The server's base URL; requests go to `{baseURL}/fact`.
    public let baseURL: URL
    /// How long one request may take.
    public let timeout: Duration
    /// The largest body accepted, in bytes.
    let maximumBodySize: Int

    private let session: URLSession

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL, such as `https://catfact.ninja`.
    ///   - timeout: The per-request timeout.
    ///   - maximumBodySize: The largest response body accepted, in bytes.
    public init(baseURL: URL, timeout: Duration, maximumBodySize: Int = FactService.defaultMaximumBodySize) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        let configuration = URLSessionConfiguration.ephemeral
        // A backstop only: FoundationNetworking truncates timeouts to whole seconds (300 ms
        // becomes an immediate timeout), so `fetchFact` enforces `timeout` itself.
        configuration.timeoutIntervalForRequest = Self.backstopInterval(for: timeout)
        configuration.timeoutIntervalForResource = Self.backstopInterval(for: timeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The URL a fact is requested from: `{baseURL}/fact`.
    var factURL: URL { baseURL.appendingPathComponent("fact") }

    /// Fetches one fact.
    ///
    /// - Throws: ``FactServiceError`` describing what went wrong.
    func fetchFact() async throws(FactServiceError) -> CatFact {
        let url = factURL
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
            timeoutInterval: Self.backstopInterval(for: timeout))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await send(request)
        guard let http = response as? HTTPURLResponse else {
            throw .transport(url: url, reason: "the answer was not HTTP")
        }
        guard http.statusCode == 200 else {
            throw .httpStatus(url: url, code: http.statusCode)
        }
        guard data.count <= maximumBodySize else {
            throw .bodyTooLarge(url: url, limit: maximumBodySize, size: data.count)
        }
        return try Self.decodeFact(from: data, url: url)
    }

    /// Sends the request, failing with ``FactServiceError/timedOut(url:after:)`` once `timeout` passes.
    private func send(_ request: URLRequest) async throws(FactServiceError) -> (Data, URLResponse) {
        let url = factURL
        let session = session
        let timeout = timeout
        do {
            return try await withThrowingTaskGroup(of: (Data, URLResponse).self) { group in
                group.addTask { try await session.data(for: request) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw FactServiceError.timedOut(url: url, after: timeout)
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else {
                    throw FactServiceError.transport(url: url, reason: "no result")
                }
                return first
            }
        } catch let error as FactServiceError {
            throw error
        } catch {
            throw Self.mapTransportError(error, url: url, timeout: timeout)
        }
    }

    private static func backstopInterval(for timeout: Duration) -> TimeInterval {
        timeout.timeInterval.rounded(.up) + 1
    }

    /// Decodes `{"fact": String, "length": Int}`, explaining what is wrong otherwise.
    static func decodeFact(from data: Data, url: URL) throws(FactServiceError) -> CatFact {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            let preview = String(decoding: data.prefix(40), as: UTF8.self)
            throw .invalidBody(url: url, reason: "not JSON: \"\(preview)\"")
        }
        guard case .object(let fields) = value else {
            throw .invalidBody(url: url, reason: "expected a JSON object, got \(value.summary)")
        }
        guard case .string(let text)? = fields["fact"] else {
            throw .invalidBody(url: url, reason: fields["fact"].map { "\"fact\" is \($0.summary), not a string" } ?? "\"fact\" is missing")
        }
        guard case .number(let length)? = fields["length"], length.rounded() == length, length >= 0, length < Double(Int.max) else {
            throw .invalidBody(url: url, reason: fields["length"].map { "\"length\" is \($0.summary), not an integer" } ?? "\"length\" is missing")
        }
        return CatFact(fact: text, length: Int(length))
    }

    private static func mapTransportError(_ error: any Error, url: URL, timeout: Duration) -> FactServiceError {
        guard let urlError = error as? URLError else {
            return .transport(url: url, reason: "\(error)")
        }
        switch urlError.code {
        case .timedOut:
            return .timedOut(url: url, after: timeout)
        case .cannotConnectToHost:
            return .unreachable(url: url, reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed:
            return .unreachable(url: url, reason: "unknown host")
        case .notConnectedToInternet:
            return .unreachable(url: url, reason: "no network connection")
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            return .connectionDropped(url: url)
        case .cancelled:
            return .cancelled(url: url)
        default:
            return .transport(url: url, reason: urlError.localizedDescription)
        }
    }
}
