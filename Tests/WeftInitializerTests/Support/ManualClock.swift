import WeftPrimitives

@testable import WeftInitializer

/// A clock that moves only when a test advances it: sleepers wake when `advance(to:)` passes
/// their deadline, so a timeout or a retry delay takes no real time.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var sleepers: [Sleeper] = []
        var nextID = 0
        /// Sleeps cancelled before they were registered.
        var cancelled: Set<Int> = []
    }

    private let state = Locked(State())

    var now: Instant { Instant(offset: state.withLock { $0.now }) }
    var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on the clock.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the tasks asleep on the clock, earliest first.
    var deadlines: [Duration] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline.offset <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline.offset, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) } else { testChanges.notify() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            testChanges.notify()
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock to `offset` and wakes every sleeper whose deadline it reached.
    func advance(to offset: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, offset)
            let now = state.now
            let woken = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return woken
        }
        testChanges.notify()
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves the clock on by `duration`.
    func advance(by duration: Duration) {
        advance(to: state.withLock { $0.now } + duration)
    }

    /// Waits until `count` tasks are asleep on the clock; `false` after `limit` of real time,
    /// so that a wrong count fails a test instead of hanging it.
    func waitForSleepers(_ count: Int, limit: Duration = .seconds(60)) async -> Bool {
        await waitUntil(limit: limit) { self.sleeperCount == count }
    }
}

/// Rings whenever something a test waits for may have changed: a task fell asleep on a
/// ``ManualClock`` or was woken, a step of a run ended (``StepEnds``). Waiters check their
/// condition again at each ring, so they use no processor while they wait, however loaded
/// the machine. Tests run in parallel share it; a ring for another test costs one check.
let testChanges = ChangeSignal()

/// A counter of changes that tasks can wait on without missing one: a waiter reads
/// ``version``, checks its condition, and waits for a change since that version.
final class ChangeSignal: Sendable {
    private struct State {
        var version = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
        /// Waits cancelled before they were registered.
        var cancelled: Set<Int> = []
    }

    private let state = Locked(State())

    var version: Int { state.withLock { $0.version } }

    /// Counts a change and wakes every waiter.
    func notify() {
        let waiters = state.withLock { state in
            state.version += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once there has been a change since `version` (at once if there has), or the
    /// task is cancelled.
    func change(since version: Int) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.version != version || state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return CheckedContinuation<Void, Never>?.none
                }
                return waiter
            }
            waiter?.resume()
        }
    }
}

/// Waits until `condition` holds, checking it at each ``testChanges`` ring; `false` when the
/// task is cancelled or after `limit` of real time (a generous bound: a condition that holds
/// is seen at the ring that made it hold, so the limit only ends a test that is wrong).
@MainActor
func waitUntil(limit: Duration = .seconds(60), _ condition: @MainActor () -> Bool) async -> Bool {
    let giveUp = ContinuousClock.now + limit
    // Rings once at the limit, so that a wait with no change ends then.
    let alarm = Task {
        try? await Task.sleep(until: giveUp, clock: .continuous)
        testChanges.notify()
    }
    defer { alarm.cancel() }
    while true {
        let version = testChanges.version
        if condition() { return true }
        guard ContinuousClock.now < giveUp, !Task.isCancelled else { return false }
        await testChanges.change(since: version)
    }
}

/// How many steps of a run have ended (finished, failed, cancelled or skipped), counted from
/// its events: when it reaches a number, the initializer has handled that many ends.
@MainActor
final class StepEnds {
    private(set) var count = 0

    init(_ events: AsyncStream<InitializationEvent>) {
        Task { @MainActor in
            for await event in events {
                switch event {
                case .stepFinished, .stepFailed, .stepCancelled, .stepSkipped:
                    count += 1
                    testChanges.notify()
                default: break
                }
            }
        }
    }
}
