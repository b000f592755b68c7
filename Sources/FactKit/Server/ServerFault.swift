/// A way the bundled fact server can misbehave on purpose, for demos and tests.
///
/// Named by its raw value, for example `"fault": "http-500"` in an environments file.
public enum ServerFault: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every request is answered with `500 Internal Server Error`.
    case http500 = "http-500"
    /// Every answer is delayed past the client's timeout.
    case slow
    /// Every request is answered `200 OK` with a body that is not JSON.
    case garbage
    /// Every connection is closed without sending any response.
    case drop
    /// Requests are answered as usual, but the server never stops when a run's container shuts
    /// it down: its disposal never returns, as a service stuck in its own shutdown does. The
    /// run's shutdown deadline abandons it, so `q` and SIGTERM still exit in time.
    case stuckShutdown = "stuck-shutdown"

    /// The raw values, in declaration order, for messages and help text.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// The raw value, as written in files and on the command line.
    public var description: String { rawValue }
}
