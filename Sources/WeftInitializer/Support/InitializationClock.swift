/// The clock a run reads its timings from and waits on for timeouts and retry delays.
///
/// The initializer uses `.continuous` unless given another; tests pass a clock they advance
/// themselves, so that a timeout or a backoff takes no real time:
///
/// ```swift
/// let initializer = try DependencyInitializer(
///     createProcess: { AppProcess() }, steps: steps, clock: InitializationClock(testClock))
/// ```
public struct InitializationClock: Sendable {
    /// The time elapsed since the clock was wrapped.
    let now: @Sendable () -> Duration
    /// Suspends until `now()` reaches the deadline; throws when the task is cancelled.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Wraps any clock that measures in `Duration`.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }

    /// The system's monotonic clock, which keeps counting while the machine sleeps.
    public static var continuous: InitializationClock { InitializationClock(ContinuousClock()) }
}
