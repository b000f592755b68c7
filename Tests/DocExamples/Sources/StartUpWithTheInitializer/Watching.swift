import WeftInitializer

/// The blocks on events, repeats and timings, on the initializer of the running block, in the
/// article's order of what they print: the repeat, then the first run's timings.
@MainActor
func watchTimeAndRepeat() async throws {
    let initializer = try DependencyInitializer(
        createProcess: { AppProcess(environment: .production) },
        preSyncSteps: preSyncSteps,
        asyncSteps: asyncSteps
    )

    // doc begins
    let splash = Splash()
    let events = initializer.events()
    Task {
        for await event in events {
            switch event {
            case .stepStarted(let step): splash.markRunning(step)
            case .stepFinished(let timing): splash.markDone(timing.step, after: timing.duration)
            case .stepFailed(let timing, let error): splash.markFailed(timing.step, error)
            case .stepCancelled(let timing): splash.markCancelled(timing.step)
            default: break
            }
        }
    }
    let result = try await initializer.run()
    // doc ends

    // doc begins
    let staging = try await result.runRepeat(createProcess: { previous in
        let process = AppProcess(environment: .staging)
        process.database = previous.database  // opened once, by a simple step
        return process
    })
    print(staging.container.environment)  // staging
    // doc ends

    // doc begins
    for timing in result.stepTimings {
        print(timing.step.title, timing.startOffset, timing.duration, timing.outcome)  // Open the database … finished
    }
    print("ready in \(result.elapsed)")  // ready in … seconds
    // doc ends
    precondition(staging.process.database === result.process.database, "the database was carried over")
}
