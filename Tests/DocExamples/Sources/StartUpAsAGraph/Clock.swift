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
    let events = initializer.events()
    let run = Task { try await initializer.run() }
    // The first attempt of "fact" fails. Its timeout sleeps on the clock too: wait until the run
    // retries, then for the sleeper, which is now the retry delay.
    for await event in events {
        if case .stepRetrying = event { break }
    }
    try await clock.waitForSleepers(1)
    clock.advance(by: .milliseconds(200))
    let result = try await run.value
    let fact = try #require(result.report.steps.first { $0.step.id == "fact" })
    #expect(fact.attempts == 2)
    #expect(fact.duration == .milliseconds(200))  // exactly the time the test advanced the clock
}
// doc ends
