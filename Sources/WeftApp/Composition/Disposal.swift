import AsyncHTTPClient
import Atomics
import Dispatch
import FactKit
import Logging
public import Weft

// The services of a run that hold resources. The run's container disposes them when it shuts
// down — when a repeat run replaces it (``AppPlan/switching(to:)``) or the app quits — in
// reverse order of creation; one that a step the run abandoned made after that is disposed as
// soon as its factory returns. Nothing a run started outlives it.

/// The embedded server releases its port.
extension FactServer: Disposable {
    func dispose() async {
        // A deliberate fault: a disposal that never returns, whatever happens, cancellation
        // included; the run's shutdown deadline must abandon it.
        if fault == .stuckShutdown {
            // Suspends for good: the continuation is dropped unresumed, which cancellation
            // cannot reach (a checked one would report the leak on the terminal).
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
        await stop()
    }
}

/// The run's HTTP client. Shut down with the run's container; and, should a run be dropped
/// without that (a test, a run abandoned mid-step), when it is released, as AsyncHTTPClient
/// requires of every client.
final class RunHTTPClient: Disposable {
    let client: HTTPClient
    private let disposed = ManagedAtomic(false)

    init(_ client: HTTPClient) {
        self.client = client
    }

    /// Cancels what is in flight and closes the connections.
    func dispose() async throws {
        disposed.store(true, ordering: .sequentiallyConsistent)
        try await client.shutdown()
    }

    deinit {
        // Only a client never disposed: shutting down a shut-down one throws, and a throw in a
        // deinit can run inside whatever released the last reference.
        guard !disposed.load(ordering: .sequentiallyConsistent) else { return }
        client.shutdown(queue: .global()) { _ in }
    }
}

extension Container {
    /// The time a run's services have to stop when the run ends or the app quits (`q`, SIGTERM):
    /// a service that takes longer is abandoned, so that the app always exits.
    static let runShutdownDeadline: Duration = .seconds(5)

    /// Shuts the container down within `deadline`, logging what failed, and each service
    /// abandoned because it did not stop in time, to its diagnostics logger: at the end of a run
    /// no caller is left to act on a service that would not stop.
    func shutdownLogging(
        deadline: Duration = Container.runShutdownDeadline, clock: some Clock<Duration> = ContinuousClock()
    ) async {
        do {
            try await shutdown(deadline: deadline, clock: clock)
        } catch {
            for abandoned in error.abandoned {
                diagnostics.logger.warning(
                    "A service did not stop in time and was abandoned",
                    metadata: ["weft.key": "\(abandoned.key)", "error": "\(abandoned)"])
            }
            if !error.failures.isEmpty {
                diagnostics.logger.warning(
                    "Shutting down the run's services failed",
                    metadata: ["error": "\(error.failures.map(\.description).joined(separator: "; "))"])
            }
        }
    }
}
