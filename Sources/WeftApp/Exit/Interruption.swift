/// A termination signal that asked the app to quit cleanly.
public enum Interruption: Sendable, Hashable {
    /// SIGINT (Ctrl-C).
    case interrupt
    /// SIGTERM.
    case terminate

    /// The conventional exit status: 128 plus the signal number (130 or 143).
    public var exitCode: Int32 {
        switch self {
        case .interrupt: 130
        case .terminate: 143
        }
    }
}
