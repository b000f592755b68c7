import Testing
import WeftInitializer
import WeftTesting

/// What the start-up builds: the first fact.
@MainActor private final class Launch: DependencyInitializationProcess {
    var fact = ""
    var toContainer: String { fact }
}

private struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
}

/// A server that fails `failures` times, then answers.
private actor FlakyServer {
    private var failures: Int
    private(set) var requests = 0

    init(failures: Int) { self.failures = failures }

    func fetchFact() throws -> String {
        requests += 1
        guard failures == 0 else {
            failures -= 1
            throw Offline()
        }
        return "Cats sleep 16 hours a day."
    }
}

@Suite("A start-up graph on a ManualClock", .timeLimit(.minutes(1)))
@MainActor
struct InitializerRetryTests {
    @Test("a step's retry delays pass when the test advances the clock, and take no real time")
    func retryBackoff() async throws {
        let started = ContinuousClock.now
        // doc begins
        let flakyServer = FlakyServer(failures: 2)  // fails twice, then answers
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { Launch() },
            steps: [
                .async("fact", retry: .exponential(attempts: 3, baseDelay: .milliseconds(200), jitter: 0)) { _ in
                    try await flakyServer.fetchFact()
                } apply: { process, fact in
                    process.fact = fact
                }
            ],
            clock: InitializationClock(clock)
        )
        let run = Task { try await initializer.run() }
        try await clock.waitForSleepers(1)  // the first attempt failed: its retry delay sleeps
        #expect(clock.deadlines == [ManualClock.Instant(offset: .milliseconds(200))])
        clock.advance(by: .milliseconds(200))
        try await clock.waitForSleepers(1)  // so did the second: the delay doubles
        clock.advance(by: .milliseconds(400))
        let result = try await run.value
        #expect(result.container == "Cats sleep 16 hours a day.")
        #expect(result.report.elapsed == .milliseconds(600))  // exactly: only the clock's time
        // doc ends
        #expect(await flakyServer.requests == 3)
        let fact = try #require(result.report.steps.first)
        #expect(fact.attempts == 3)
        #expect(fact.duration == .milliseconds(600))
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("cancelling the run while a retry delay sleeps ends it at once, the sleeper gone")
    func cancelDuringBackoff() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { Launch() },
            steps: [
                .async("fact", retry: .exponential(attempts: 3, baseDelay: .seconds(60), jitter: 0)) { _ in
                    throw Offline()
                } apply: { (process: Launch, fact: String) in
                    process.fact = fact
                }
            ],
            clock: InitializationClock(clock)
        )
        let run = Task { try await initializer.run() }
        try await clock.waitForSleepers(1)
        run.cancel()
        let failure = await #expect(throws: InitializationFailure<Launch>.self) { try await run.value }
        #expect(failure?.isCancellation == true)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }
}
