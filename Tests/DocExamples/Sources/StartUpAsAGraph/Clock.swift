// doc begins
import Testing
import WeftInitializer
import WeftTesting

@Test(.timeLimit(.minutes(1)))
@MainActor
func theFactIsFetchedAgainAfterItsDelay() async throws {
    let clock = ManualClock()
    let initializer = try DependencyInitializer(
        createProcess: { AppProcess(environment: .production) },
        steps: steps,
        clock: InitializationClock(clock)
    )
    let result = try await withRun(of: initializer) { run in
        let wake = try await clock.waitForRetryDelay(of: "fact")  // the first attempt failed
        clock.advance(to: wake)
        return try await run.value
    }
    let fact = try #require(result.report.steps.first { $0.step.id == "fact" })
    #expect(fact.attempts == 2)
    #expect(fact.duration == clock.now.offset)  // exactly the time the test advanced the clock
}
// doc ends
