import WeftInitializer

/// Records what async steps did, from any task, in arrival order.
actor Journal {
    private(set) var entries: [String] = []

    func record(_ entry: String) {
        entries.append(entry)
    }

    func count(of entry: String) -> Int {
        entries.filter { $0 == entry }.count
    }
}

/// Releases every waiting task once `count` tasks have arrived.
actor Barrier {
    private let count: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        self.count = count
    }

    func arrive() async {
        arrived += 1
        if arrived >= count {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }
}

/// Suspends until the current task is cancelled, then throws `CancellationError`.
func suspendUntilCancelled() async throws {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}
    withExtendedLifetime(continuation) {}
    throw CancellationError()
}

/// Records callback invocations on the main actor.
@MainActor
final class CallbackLog {
    var entries: [String] = []
    var failures: [InitializationFailure<TestProcess>] = []
    var results: [InitializationResult<TestProcess>] = []
}

/// A one-shot signal that waiters await without regard to cancellation, the way a legacy
/// callback API ignores it.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Suspends until ``open()``, even when the waiting task is cancelled.
    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Releases every current and future waiter.
    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}
