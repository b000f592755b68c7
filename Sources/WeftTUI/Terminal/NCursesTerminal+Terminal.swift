import WeftApp
import WeftTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ncurses adapter is the app's real ``Terminal``.
extension NCursesTerminal: Terminal {
    /// The quit signal that arrived, if any.
    var interruption: Interruption? {
        switch receivedSignal {
        case SIGINT?: .interrupt
        case SIGTERM?: .terminate
        default: nil
        }
    }
}
