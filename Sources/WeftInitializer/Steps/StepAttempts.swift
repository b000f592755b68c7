/// A step's attempts as they end, and what its retry policy makes of a failure: the one
/// bookkeeping of attempts that graph steps (``GraphRun``) and on-demand steps (``OnDemand``)
/// share, so that the retry delay is computed in one place.
struct StepAttempts: Sendable {
    /// What comes after a failed attempt.
    enum AfterFailure: Equatable {
        /// Try again: attempt `attempt` (2 for the first retry), after `delay`.
        case retry(attempt: Int, delay: Duration)
        /// The policy's attempts are spent: the step failed.
        case exhausted
    }

    /// The attempts that ended, in order, once one did not finish: a step whose first attempt
    /// finishes has none (its timing is that attempt), and costs no allocation.
    private(set) var ended: [InitializationStepTiming.Attempt] = []

    /// The attempt that ran from `since` to `end` finished.
    mutating func finished(since: Duration, at end: Duration) {
        if !ended.isEmpty { ended.append(.init(startOffset: since, duration: end - since, outcome: .finished)) }
    }

    /// The attempt that ran from `since` to `end` was cancelled and abandoned.
    mutating func cancelled(since: Duration, at end: Duration) {
        ended.append(.init(startOffset: since, duration: end - since, outcome: .cancelled))
    }

    /// Attempt `attempt`, which ran from `since` to `end`, failed: the next one `retry` allows
    /// and its delay (its jitter drawn now), or none left. (The policy is the step's, passed in
    /// rather than kept: a run keeps one of these per step.)
    mutating func failed(
        _ attempt: Int, of retry: InitializationRetry, since: Duration, at end: Duration
    ) -> AfterFailure {
        ended.append(.init(startOffset: since, duration: end - since, outcome: .failed))
        guard attempt < retry.attempts else { return .exhausted }
        let next = attempt + 1
        return .retry(attempt: next, delay: retry.delay(before: next, random: Double.random(in: 0..<1)))
    }
}
