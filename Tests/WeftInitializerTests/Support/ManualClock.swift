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
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
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
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves the clock on by `duration`.
    func advance(by duration: Duration) {
        advance(to: state.withLock { $0.now } + duration)
    }

    /// Waits, without sleeping, until `count` tasks are asleep on the clock; `false` after
    /// `limit` of real time, so that a wrong count fails a test instead of hanging it.
    func waitForSleepers(_ count: Int, limit: Duration = .seconds(10)) async -> Bool {
        await waitUntil(limit: limit) { sleeperCount == count }
    }
}

/// Waits, without sleeping, until `condition` holds; `false` after `limit` of real time.
@MainActor
func waitUntil(limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let giveUp = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < giveUp else { return false }
        await Task.yield()
    }
    return true
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
                case .stepFinished, .stepFailed, .stepCancelled, .stepSkipped: count += 1
                default: break
                }
            }
        }
    }
}
