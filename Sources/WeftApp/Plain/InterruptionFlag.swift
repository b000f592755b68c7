import Atomics

/// Set once when a run is cancelled; read by the task that prints its events.
final class InterruptionFlag: Sendable {
    private let flag = ManagedAtomic(false)

    /// Whether the run was cancelled.
    var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Records the cancellation.
    func set() {
        flag.store(true, ordering: .releasing)
    }
}
