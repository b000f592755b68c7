import Weft  // its lock
import WeftInitializer  // what a run's sleeps are for
import WeftPrimitives

/// A clock that moves only when a test advances it, so that a timeout or a retry delay takes no
/// real time.
///
/// A task that sleeps on the clock stays asleep until ``advance(by:)`` or ``advance(to:)``
/// moves the clock to its deadline or past it. Wrap the clock in `InitializationClock` to drive
/// a `DependencyInitializer`'s timeouts and retry delays. Before advancing, wait with
/// ``waitForSleepers(_:)`` until the code under test sleeps: advancing earlier moves the clock
/// while nobody sleeps, and the sleep that comes after waits for an advance that never comes.
///
/// ```swift
/// let clock = ManualClock()
/// let nap = Task { try await clock.sleep(for: .seconds(5)) }
/// try await clock.waitForSleepers(1)  // the task is asleep
/// clock.advance(by: .seconds(5))  // and wakes at once
/// try await nap.value
/// ```
public final class ManualClock: Clock, Sendable {
    /// A moment on a ``ManualClock``: how far the clock had been advanced from its start.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time from the clock's start to this instant.
        public var offset: Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later (earlier when `duration` is negative).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`, negative when `other` is earlier.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the clock's start, such as `0.2 seconds`.
        public var description: String { offset.description }
    }

    /// A task asleep on the clock.
    private struct Sleeper {
        let id: Int
        let deadline: Instant
        /// What a `DependencyInitializer` run sleeps for, when the sleep is one of its own.
        let purpose: InitializationSleep?
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A task waiting until the sleepers are as it needs: `found` gives the instant it returns,
    /// or `nil` while they are not.
    private struct Waiter {
        let id: Int
        let found: @Sendable ([Sleeper]) -> Instant?
        let continuation: CheckedContinuation<Instant, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        /// Asleep, in the order they went to sleep.
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []
        var nextID = 0
        /// Sleeps and waits that have begun but whose continuation is not stored yet.
        var arriving: Set<Int> = []
        /// Those of `arriving` whose task was cancelled: they throw instead of being stored.
        var cancelled: Set<Int> = []

        mutating func arrive() -> Int {
            defer { nextID += 1 }
            arriving.insert(nextID)
            return nextID
        }

        /// Removes `id` from `arriving`; `true` if its task was cancelled meanwhile.
        mutating func settle(_ id: Int) -> Bool {
            arriving.remove(id)
            return cancelled.remove(id) != nil
        }

        /// Records that the task of `id` was cancelled before its continuation was stored.
        mutating func cancel(_ id: Int) {
            if arriving.contains(id) { cancelled.insert(id) }
        }

        /// Removes and returns the waiters the sleepers now satisfy, each with what it returns.
        mutating func satisfiedWaiters() -> [(Waiter, Instant)] {
            var satisfied: [(Waiter, Instant)] = []
            waiters.removeAll { waiter in
                guard let instant = waiter.found(sleepers) else { return false }
                satisfied.append((waiter, instant))
                return true
            }
            return satisfied
        }
    }

    private let state = Locked(State())

    /// A clock at its start, offset zero, with nobody asleep.
    public init() {}

    /// The current instant: the clock's start advanced by every ``advance(by:)`` and
    /// ``advance(to:)`` so far.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock wakes a sleeper exactly at its deadline.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the tasks asleep on the clock, earliest first.
    public var deadlines: [Instant] { state.withLock { $0.sleepers.map(\.deadline) }.sorted() }

    /// Suspends until the clock is advanced to `deadline` or past it.
    ///
    /// Returns at once when the clock is there already. When the task is cancelled, before or
    /// during the sleep, the sleep ends at once: it throws `CancellationError` and no longer
    /// counts as asleep.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: the clock wakes sleepers exactly at their deadline.
    public nonisolated(nonsending) func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { $0.arrive() }
        let purpose = InitializationSleep.current
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, waiters) = state.withLock { state -> (Result<Void, any Error>?, [(Waiter, Instant)]) in
                    if state.settle(id) { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers.append(
                        Sleeper(id: id, deadline: deadline, purpose: purpose, continuation: continuation))
                    return (nil, state.satisfiedWaiters())
                }
                if let outcome { continuation.resume(with: outcome) }
                for (waiter, instant) in waiters { waiter.continuation.resume(returning: instant) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancel(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Suspends until at least `count` tasks are asleep on the clock.
    ///
    /// Await it before ``advance(by:)``, so that the advance wakes the sleep it is meant for:
    ///
    /// ```swift
    /// let nap = Task { try await clock.sleep(for: .seconds(5)) }
    /// try await clock.waitForSleepers(1)  // the task is asleep
    /// clock.advance(by: .seconds(5))
    /// ```
    ///
    /// It counts every sleeper: a `DependencyInitializer` run's deadline sleeps from the run's
    /// start, and a step's timeout while each attempt runs. To wait for a step's retry delay,
    /// wait for that: ``waitForRetryDelay(of:)``.
    ///
    /// Returns at once when that many are asleep already. It counts the tasks asleep at one
    /// moment, not the sleeps so far: a sleeper woken by an advance no longer counts. When the
    /// test's time limit (`.timeLimit(.minutes(1))`) or anything else cancels the waiting task,
    /// this throws, so a count never reached fails the test instead of hanging it.
    ///
    /// - Parameter count: How many tasks must be asleep.
    /// - Throws: `CancellationError` when the task is cancelled before they are.
    public nonisolated(nonsending) func waitForSleepers(_ count: Int) async throws {
        _ = try await wait { sleepers in sleepers.count >= count ? Instant(offset: .zero) : nil }
    }

    /// Suspends until the retry delay of `step`, a step of a `DependencyInitializer` run on this
    /// clock, is asleep, and returns the instant it wakes at.
    ///
    /// The delay starts when an attempt of the step has failed and another is due: the sleep
    /// the test means, told apart from the run's deadline and the step's timeout, which sleep on
    /// the clock too. Advance the clock to the instant returned to start the next attempt:
    ///
    /// ```swift
    /// let wake = try await clock.waitForRetryDelay(of: "Fetch the fact")
    /// clock.advance(to: wake)  // the next attempt starts
    /// ```
    ///
    /// Returns at once when that delay is asleep already; a delay the clock has passed no
    /// longer counts, so after an advance this waits for the step's next delay. Cancelling the
    /// waiting task (a test's time limit does) makes this throw.
    ///
    /// - Parameter step: The step's id or title.
    /// - Returns: The instant the delay ends.
    /// - Throws: `CancellationError` when the task is cancelled before the delay sleeps.
    @discardableResult
    public nonisolated(nonsending) func waitForRetryDelay(of step: String) async throws -> Instant {
        try await wait { sleepers in
            sleepers.first { sleeper in
                guard case .retryDelay(let info, _) = sleeper.purpose else { return false }
                return info.id == step || info.title == step
            }?.deadline
        }
    }

    /// Suspends until `found` gives an instant for the sleepers, and returns it.
    private nonisolated(nonsending) func wait(
        until found: @escaping @Sendable ([Sleeper]) -> Instant?
    ) async throws -> Instant {
        let id = state.withLock { $0.arrive() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Instant, any Error>) in
                let outcome = state.withLock { state -> Result<Instant, any Error>? in
                    if state.settle(id) { return .failure(CancellationError()) }
                    if let instant = found(state.sleepers) { return .success(instant) }
                    state.waiters.append(Waiter(id: id, found: found, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancel(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and wakes every sleeper whose deadline it reaches.
    ///
    /// The sleepers are resumed earliest deadline first. Each then runs when its executor
    /// schedules it, so two woken tasks may run in either order, on one actor too. A negative
    /// duration leaves the clock where it is.
    ///
    /// - Returns: The deadlines of the sleepers woken, earliest first, one per sleeper.
    @discardableResult
    public func advance(by duration: Duration) -> [Instant] {
        advance { $0.advanced(by: duration) }
    }

    /// Moves the clock to `instant` and wakes every sleeper whose deadline it reaches.
    ///
    /// The sleepers are woken as by ``advance(by:)``. An instant before ``now`` leaves the
    /// clock where it is: the clock never goes back.
    ///
    /// - Returns: The deadlines of the sleepers woken, earliest first, one per sleeper.
    @discardableResult
    public func advance(to instant: Instant) -> [Instant] {
        advance { _ in instant }
    }

    /// Moves the clock to `target(now)` if that is later, and wakes the sleepers now due.
    private func advance(_ target: (Instant) -> Instant) -> [Instant] {
        let due = state.withLock { state -> [Sleeper] in
            let target = target(state.now)
            guard target > state.now else { return [] }
            state.now = target
            let due = state.sleepers.filter { $0.deadline <= target }
            state.sleepers.removeAll { $0.deadline <= target }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }
        for sleeper in due { sleeper.continuation.resume() }
        return due.map(\.deadline)
    }
}
