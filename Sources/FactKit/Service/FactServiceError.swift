public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    /// The body was larger than the service's limit.
    case bodyTooLarge(url: URL, limit: Int, size: Int)
    /// Any other transport failure (TLS, bad URL, …).
    case transport(url: URL, reason: String)
    /// The request was cancelled (the task asking for it was cancelled): not the server's fault.
    case cancelled(url: URL)

    /// The URL that was requested.
    var url: URL {
        switch self {
        case .unreachable(let url, _), .timedOut(let url, _), .connectionDropped(let url), .httpStatus(let url, _),
            .invalidBody(let url, _), .bodyTooLarge(let url, _, _), .transport(let url, _),
            .cancelled(let url):
            url
        }
    }

    /// A one-line explanation with what to do next.
    public var description: String {
        let target = url.absoluteString
        switch self {
        case .unreachable(_, let reason):
            return "cannot reach \(target) (\(reason)); check that the server is running and the address is right, or choose another environment"
        case .timedOut(_, let after):
            return "\(target) did not answer within \(after.readable); the server may be overloaded, try again or raise timeoutSeconds"
        case .connectionDropped:
            return "\(target) closed the connection without answering; the server may have crashed, try again"
        case .httpStatus(_, let code):
            let phrase = HTTPURLResponse.localizedString(forStatusCode: code)
            return "\(target) answered HTTP \(code) (\(phrase)); the server is failing, try again later or choose another environment"
        case .invalidBody(_, let reason):
            return "\(target) sent an answer that is not a cat fact (\(reason)); expected {\"fact\": String, \"length\": Int}"
        case .bodyTooLarge(_, let limit, let size):
            return "\(target) sent \(size) bytes, more than the \(limit)-byte limit for one fact; is this really a cat-fact server?"
        case .transport(_, let reason):
            return "request to \(target) failed (\(reason))"
        case .cancelled:
            return "the request to \(target) was cancelled"
        }
    }
}
