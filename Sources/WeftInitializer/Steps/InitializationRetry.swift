import WeftPrimitives

/// How often a step is tried and how long it waits between tries: exponential backoff with
/// jitter.
///
/// The delay before attempt `n` (2, 3, …) is `baseDelay × 2^(n−2)`, at most `maxDelay`; jitter
/// then takes a random part of up to `jitter` of it away, so that many processes restarting at
/// once do not retry in step. A step's timeout applies to each attempt on its own.
///
/// ```swift
/// .async("fact", after: ["client"], timeout: .seconds(5),
///        retry: .exponential(attempts: 3, baseDelay: .milliseconds(200))) { process in … }
/// ```
public struct InitializationRetry: Sendable, Hashable, CustomStringConvertible {
    /// How many times the step runs at most, the first attempt included.
    public let attempts: Int
    /// The delay before the second attempt.
    public let baseDelay: Duration
    /// The longest delay between two attempts.
    public let maxDelay: Duration
    /// The largest fraction of a delay that jitter removes, from 0 (none) to 1.
    public let jitter: Double

    /// One attempt: a failure is final.
    public static let never = InitializationRetry(attempts: 1, baseDelay: .zero, maxDelay: .zero, jitter: 0)

    /// Up to `attempts` attempts, the delay doubling from `baseDelay` up to `maxDelay`.
    ///
    /// Values out of range (fewer than one attempt, a negative delay, jitter outside 0…1)
    /// make the initializer throw ``InitializationConfigurationError/Code/invalidRetry``.
    public static func exponential(
        attempts: Int,
        baseDelay: Duration = .milliseconds(100),
        maxDelay: Duration = .seconds(10),
        jitter: Double = 0.2
    ) -> InitializationRetry {
        InitializationRetry(attempts: attempts, baseDelay: baseDelay, maxDelay: maxDelay, jitter: jitter)
    }

    private init(attempts: Int, baseDelay: Duration, maxDelay: Duration, jitter: Double) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// The delay before `attempt` (2 for the first retry), with `random` in `0..<1` choosing
    /// the jitter.
    ///
    /// Any policy and any `random` give a delay between zero and `maxDelay`, even out of
    /// range: a `random` outside `0...1` counts as its nearer end, a jitter outside `0...1` as
    /// its nearer end, and NaN as 0.
    public func delay(before attempt: Int, random: Double) -> Duration {
        guard attempt >= 2, maxDelay > .zero, baseDelay > .zero else { return .zero }
        var delay = baseDelay
        var doublings = attempt - 2
        while doublings > 0, delay < maxDelay {
            delay = delay <= maxDelay / 2 ? delay * 2 : maxDelay
            doublings -= 1
        }
        delay = min(delay, maxDelay)
        let kept = 1 - Self.unit(jitter) * Self.unit(random)
        return kept < 1 ? delay * kept : delay
    }

    /// `value` within `0...1`; NaN as 0.
    private static func unit(_ value: Double) -> Double {
        value > 0 ? min(value, 1) : 0
    }

    /// Why the policy cannot be used, if it cannot.
    var problem: String? {
        if attempts < 1 { return "attempts is \(attempts); it must be at least 1" }
        if baseDelay < .zero || maxDelay < .zero { return "delays must not be negative" }
        if !(0...1).contains(jitter) { return "jitter is \(jitter); it must be between 0 and 1" }
        return nil
    }

    /// `3 attempts, 100 ms doubling to 10000 ms, 20% jitter`; `no retry` for one attempt.
    ///
    /// Any policy can be described, one out of range too: a jitter whose percentage is not a
    /// whole number of reasonable size reads as the number it is (`nan% jitter`,
    /// `inf% jitter`, `1e+18% jitter`).
    public var description: String {
        guard attempts > 1 else { return "no retry" }
        let percent = jitter * 100
        // Only a finite value well within Int's range converts to Int without trapping.
        let jitter = abs(percent) < 1e15 ? "\(Int(percent.rounded()))" : "\(percent)"
        return
            "\(attempts) attempts, \(baseDelay.roundedMilliseconds) ms doubling to \(maxDelay.roundedMilliseconds) ms, "
            + "\(jitter)% jitter"
    }
}
