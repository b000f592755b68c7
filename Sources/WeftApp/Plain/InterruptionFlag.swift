import Foundation

/// Set once when a run is cancelled; read by the task that prints its events.
final class InterruptionFlag: @unchecked Sendable {  // `isSetValue` is only touched under `lock`.
    private let lock = NSLock()
    private var isSetValue = false

    /// Whether the run was cancelled.
    var isSet: Bool { lock.withLock { isSetValue } }

    /// Records the cancellation.
    func set() {
        lock.withLock { isSetValue = true }
    }
}
