public import Foundation

/// Why ``FactService`` could not get a fact. Each message names the URL and suggests what to do.
public enum FactServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing answered: the connection was refused or the host could not be found or reached.
    case unreachable(url: URL, reason: String)
    /// No complete answer arrived within the timeout.
    case timedOut(url: URL, after: Duration)
    /// The server accepted the connection, then closed it without a complete response.
    case connectionDropped(url: URL)
    /// The server answered with a status other than `200`.
    case httpStatus(url: URL, code: Int)
    /// The body was not JSON, or lacked `fact` (string) and `length` (integer).
    case invalidBody(url: URL, reason: String)
    /// The body was larger than the service's limit; it was not read past the limit.
    case bodyTooLarge(url: URL, limit: Int)
    /// Any other transport failure (TLS, bad URL, …).
    case transport(url: URL, reason: String)
    /// The request was cancelled (the task asking for it was cancelled): not the server's fault.
    case cancelled(url: URL)

    /// The URL that was requested.
    var url: URL {
        switch self {
        case .unreachable(let url, _), .timedOut(let url, _), .connectionDropped(let url), .httpStatus(let url, _),
            .invalidBody(let url, _), .bodyTooLarge(let url, _), .transport(let url, _),
            .cancelled(let url):
            url
        }
    }

    /// A one-line explanation with what to do next.
    public var description: String {
        let target = url.absoluteString
        switch self {
        case .unreachable(_, let reason):
            return
                "cannot reach \(target) (\(reason)); check that the server is running and the address is right, or choose another environment"
        case .timedOut(_, let after):
            return
                "\(target) did not answer within \(after.readable); the server may be overloaded, try again or raise timeoutSeconds"
        case .connectionDropped:
            return "\(target) closed the connection without answering; the server may have crashed, try again"
        case .httpStatus(_, 404):
            return
                "\(target) answered HTTP 404 (not found): the URL has no fact endpoint, check the environment's source"
        case .httpStatus(_, let code) where code >= 500:
            return
                "\(target) answered HTTP \(code) (\(Self.phrase(code))); the server is failing, try again later or choose another environment"
        case .httpStatus(_, let code):
            return "\(target) answered HTTP \(code) (\(Self.phrase(code))); check the environment's source"
        case .invalidBody(_, let reason):
            return
                "\(target) sent an answer that is not a cat fact (\(reason)); expected {\"fact\": String, \"length\": Int}"
        case .bodyTooLarge(_, let limit):
            return
                "\(target) sent more than the \(limit % 1024 == 0 ? "\(limit / 1024) KiB" : "\(limit) bytes") allowed for one fact, so weft stopped reading; is this really a cat-fact server?"
        case .transport(_, let reason):
            return "request to \(target) failed (\(reason))"
        case .cancelled:
            return "the request to \(target) was cancelled"
        }
    }

    /// The standard reason phrase of an HTTP status code, lowercased.
    private static func phrase(_ code: Int) -> String {
        switch code {
        case 400: "bad request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 405: "method not allowed"
        case 429: "too many requests"
        case 500: "internal server error"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timeout"
        default: code >= 500 ? "server error" : "client error"
        }
    }
}
