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

extension TerminationSignals {
    /// Runs `session` on the main actor; the first SIGINT or SIGTERM cancels it (and it exits
    /// 130 or 143 once it stopped), a second one exits at once.
    static func cancelling(_ session: @escaping @MainActor @Sendable () async -> ExitStatus) async -> ExitStatus {
        let signals = TerminationSignals()
        let task = Task { @MainActor in await session() }
        let interruptions = signals.interruptions
        let watcher = Task { () -> Interruption? in
            var first: Interruption?
            for await interruption in interruptions {
                // A second signal means: do not wait for a clean stop.
                if let first { StandardStreams.exit(ExitStatus(first)) }
                first = interruption
                task.cancel()
            }
            return first
        }
        let status = await task.value
        signals.stop()
        if let interruption = await watcher.value { return ExitStatus(interruption) }
        return status
    }
}
