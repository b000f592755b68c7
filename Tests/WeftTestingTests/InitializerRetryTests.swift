import Testing
import WeftInitializer
import WeftTesting

// doc begins
/// What the start-up builds: the first fact.
@MainActor final class Launch: DependencyInitializationProcess {
    var fact = ""
    var toContainer: String { fact }
}

struct Offline: Error {}

/// A server that fails `failures` times, then answers.
actor FlakyServer {
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
// doc ends

/// A fetch that never answers: it waits until cancelled.
private func flakyNever() async throws -> String {
    try await Task.sleep(for: .seconds(86_400))  // ended by cancellation, never by time
    return ""
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
            clock: InitializationClock(clock),
            deadline: .seconds(30)  // sleeps on the clock too, from the run's start
        )
        let result = try await withRun(of: initializer) { run in
            let first = try await clock.waitForRetryDelay(of: "fact")  // the first attempt failed
            #expect(first == ManualClock.Instant(offset: .milliseconds(200)))
            clock.advance(to: first)
            let second = try await clock.waitForRetryDelay(of: "fact")  // so did the second
            #expect(second == ManualClock.Instant(offset: .milliseconds(600)))  // the delay doubles
            clock.advance(to: second)
            return try await run.value
        }
        #expect(result.container == "Cats sleep 16 hours a day.")
        #expect(result.report.elapsed == .milliseconds(600))  // exactly: only the clock's time
        // doc ends
        #expect(await flakyServer.requests == 3)
        let fact = try #require(result.report.steps.first)
        #expect(fact.attempts == 3)
        #expect(fact.duration == .milliseconds(600))
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("steps after ready that withRun's body leaves running end, cancelled, before withRun returns")
    func laterStepsEnd() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { Launch() },
            steps: [
                .sync("fact") { $0.fact = "Cats sleep 16 hours a day." },
                .async("warm", after: ["fact"], schedule: .afterReady) { _ in _ = try await flakyNever() },
            ])
        let result = try await withRun(of: initializer) { run in try await run.value }
        #expect(result.container == "Cats sleep 16 hours a day.")
        #expect(!result.hasLaterStepsRunning)
        let report = await result.waitForLaterSteps()
        #expect(report.steps.map(\.outcome) == [.finished, .cancelled])
    }

    @Test("a run that withRun's body leaves unfinished is cancelled and awaited before withRun returns")
    func bodyReturnsEarly() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { Launch() },
            steps: [
                .async("fact", retry: .exponential(attempts: 3, baseDelay: .seconds(1), jitter: 0)) { _ in
                    throw Offline()
                } apply: { (process: Launch, fact: String) in
                    process.fact = fact
                }
            ],
            clock: InitializationClock(clock), deadline: .seconds(600)
        )
        let wake = try await withRun(of: initializer) { _ in try await clock.waitForRetryDelay(of: "fact") }
        #expect(wake == ManualClock.Instant(offset: .seconds(1)))
        // Ended: its delay and its deadline are no longer asleep, and the initializer runs again.
        #expect(clock.sleeperCount == 0)
        let again = try await withRun(of: initializer) { run in
            _ = try await clock.waitForRetryDelay(of: "fact")
            return run
        }
        _ = again
    }

    @Test("cancelling the test's task cancels the run withRun started: the body's wait throws, the run ends")
    func cancellationReachesTheRun() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { Launch() },
            steps: [
                .async("fact") { _ in
                    try await flakyNever()
                } apply: { (process: Launch, fact: String) in
                    process.fact = fact
                }
            ],
            clock: InitializationClock(clock), deadline: .seconds(600)
        )
        let test = Task { @MainActor in
            try await withRun(of: initializer) { run in
                try await clock.waitForRetryDelay(of: "fact")  // never: the step has no retries
                return try await run.value
            }
        }
        try await clock.waitForSleepers(1)  // the run's deadline: the run has started
        test.cancel()
        await #expect(throws: CancellationError.self) { try await test.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("waiting for a retry delay tells it from the run's deadline and the step's timeout")
    func retryDelayToldApart() async throws {
        let clock = ManualClock()
        let initializer = try DependencyInitializer(
            createProcess: { Launch() },
            steps: [
                .async(
                    "fact", timeout: .seconds(5),
                    retry: .exponential(attempts: 2, baseDelay: .seconds(1), jitter: 0)
                ) { _ in
                    try await flakyNever()
                } apply: { (process: Launch, fact: String) in
                    process.fact = fact
                }
            ],
            clock: InitializationClock(clock), deadline: .seconds(600)
        )
        try await withRun(of: initializer) { run in
            try await clock.waitForSleepers(2)  // the deadline and the first attempt's timeout
            #expect(clock.deadlines == [.init(offset: .seconds(5)), .init(offset: .seconds(600))])
            clock.advance(by: .seconds(5))  // the attempt times out
            let wake = try await clock.waitForRetryDelay(of: "fact")
            #expect(wake == ManualClock.Instant(offset: .seconds(6)))
            clock.advance(to: wake)
            try await clock.waitForSleepers(2)  // the second attempt's timeout
            clock.advance(by: .seconds(5))
            let failure = await #expect(throws: InitializationFailure<Launch>.self) { try await run.value }
            #expect(failure?.error is InitializationStepTimeoutError)
        }
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
