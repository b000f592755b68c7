import Testing

@testable import WeftInitializer

@Suite("A step's attempts: what the retry policy makes of each end")
struct StepAttemptsTests {
    @Test("a failure retries until the policy's attempts are spent, with its delay; the ends are kept in order")
    func retries() {
        // Doubling from 5 ms, no jitter: 5 ms before the second attempt, 10 ms before the third.
        let retry = InitializationRetry.exponential(attempts: 3, baseDelay: .milliseconds(5), jitter: 0)
        var attempts = StepAttempts()
        #expect(
            attempts.failed(1, of: retry, since: .zero, at: .milliseconds(1))
                == .retry(attempt: 2, delay: .milliseconds(5)))
        #expect(
            attempts.failed(2, of: retry, since: .milliseconds(6), at: .milliseconds(7))
                == .retry(attempt: 3, delay: .milliseconds(10)))
        #expect(attempts.failed(3, of: retry, since: .milliseconds(12), at: .milliseconds(13)) == .exhausted)
        #expect(attempts.ended.map(\.outcome) == [.failed, .failed, .failed])
        #expect(attempts.ended.map(\.startOffset) == [.zero, .milliseconds(6), .milliseconds(12)])
    }

    @Test("a first attempt that finishes keeps no list; one after a failure is kept")
    func finishing() {
        var once = StepAttempts()
        once.finished(since: .zero, at: .milliseconds(1))
        #expect(once.ended.isEmpty)
        var twice = StepAttempts()
        _ = twice.failed(
            1, of: .exponential(attempts: 2, baseDelay: .zero, jitter: 0), since: .zero, at: .milliseconds(1))
        twice.finished(since: .milliseconds(1), at: .milliseconds(2))
        #expect(twice.ended.map(\.outcome) == [.failed, .finished])
        twice.cancelled(since: .milliseconds(2), at: .milliseconds(3))
        #expect(twice.ended.last?.outcome == .cancelled)
    }
}
