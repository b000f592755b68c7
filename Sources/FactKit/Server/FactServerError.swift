/// Why the bundled fact server could not start or keep serving.
public enum FactServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The facts file could not be read, or it held no facts.
    case noFacts(reason: String)
    /// The server could not listen on `127.0.0.1:port`.
    case cannotListen(port: UInt16, reason: String)
    /// The server stopped listening on its own.
    case stoppedUnexpectedly(reason: String)

    /// What happened, in one line; what to do about it is the app's to say.
    public var description: String {
        switch self {
        case .noFacts(let reason):
            "the fact server has no facts to serve (\(reason))"
        case .cannotListen(let port, let reason):
            port == 0 ? "cannot listen on 127.0.0.1 (\(reason))" : "cannot listen on 127.0.0.1:\(port) (\(reason))"
        case .stoppedUnexpectedly(let reason):
            "the fact server stopped unexpectedly (\(reason))"
        }
    }
}
