import WeftInitializer

/// The continuous clock, except that a step's timeout lasts `scale` times as long: retry
/// delays, the run's deadline and every reading are the continuous clock's
/// (``AppOptions/stepTimeoutScale``).
struct StretchedTimeoutClock: Clock {
    typealias Instant = ContinuousClock.Instant

    let scale: Int
    private let base = ContinuousClock()

    var now: Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        guard case .stepTimeout = InitializationSleep.current else {
            return try await base.sleep(until: deadline, tolerance: tolerance)
        }
        let now = base.now
        try await base.sleep(until: now.advanced(by: now.duration(to: deadline) * scale), tolerance: tolerance)
    }
}
