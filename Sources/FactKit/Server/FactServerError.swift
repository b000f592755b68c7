/// Why the bundled fact server could not start or keep serving.
public enum FactServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The facts file could not be read, or it held no facts.
    case noFacts(reason: String)
    /// The port is below 1024 and this process may not listen on it (not root, no
    /// `CAP_NET_BIND_SERVICE`).
    case needsPrivileges(port: UInt16)
    /// Another program listens on the port already.
    case portInUse(port: UInt16)
    /// The server could not listen on `127.0.0.1:port` for another reason.
    case cannotListen(port: UInt16, reason: String)
    /// The server stopped listening on its own.
    case stoppedUnexpectedly(reason: String)

    /// What happened, in one line; what to do about it is the app's to say.
    public var description: String {
        switch self {
        case .noFacts(let reason):
            "the fact server has no facts to serve (\(reason))"
        case .needsPrivileges(let port):
            "cannot listen on 127.0.0.1:\(port): ports below 1024 need privileges this process does not have"
        case .portInUse(let port):
            "cannot listen on 127.0.0.1:\(port): another program is using that port"
        case .cannotListen(let port, let reason):
            port == 0 ? "cannot listen on 127.0.0.1 (\(reason))" : "cannot listen on 127.0.0.1:\(port) (\(reason))"
        case .stoppedUnexpectedly(let reason):
            "the fact server stopped unexpectedly (\(reason))"
        }
    }
}
