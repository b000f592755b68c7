import Dispatch
import Foundation

/// SIGINT and SIGTERM delivered as ``Interruption``s instead of ending the process, until
/// ``stop()`` restores their default handling. Owned by one task; share ``interruptions``.
final class TerminationSignals {
    /// The signals received, in order; finishes on ``stop()``.
    let interruptions: AsyncStream<Interruption>
    private let continuation: AsyncStream<Interruption>.Continuation
    private let watched: [(number: Int32, interruption: Interruption)] = [(SIGINT, .interrupt), (SIGTERM, .terminate)]
    private var sources: [any DispatchSourceSignal] = []

    /// Starts watching.
    init() {
        (interruptions, continuation) = AsyncStream.makeStream(of: Interruption.self)
        let continuation = continuation
        sources = watched.map { number, interruption in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(interruption) }
            source.resume()
            return source
        }
    }

    /// Stops watching; the signals end the process again.
    func stop() {
        for source in sources { source.cancel() }
        sources = []
        for (number, _) in watched { signal(number, SIG_DFL) }
        continuation.finish()
    }
}
