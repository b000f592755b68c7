import WeftPrimitives

/// An async mutual-exclusion gate: one body at a time, in arrival order, without blocking
/// a thread while waiting. Serializes bootstraps, whose bodies may suspend.
final class AsyncGate: Sendable {
    private let state = Locked<(isLocked: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func withLock<R: Sendable>(_ body: () async throws -> R) async rethrows -> R {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let enter = state.withLock { state -> Bool in
                if state.isLocked {
                    state.waiters.append(continuation)
                    return false
                }
                state.isLocked = true
                return true
            }
            if enter { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.isLocked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
