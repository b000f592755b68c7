import WeftInitializer

/// The callbacks block: code that cannot await starts the run and learns of it on the main actor.
@MainActor
func startFromAButton() async throws {
    // doc begins
    let splash = Splash()
    try DependencyInitializer(
        createProcess: { AppProcess(environment: .production) },
        preSyncSteps: preSyncSteps,
        asyncSteps: asyncSteps,
        callbacks: InitializationCallbacks(
            onStart: { plan in splash.show(plan) },
            onStartStep: { step in splash.markRunning(step) },
            onSuccessStep: { step, duration in splash.markDone(step, after: duration) },
            onSuccess: { result in show(result.container) },
            onError: { failure in showError(failure) }
        )
    ).start()
    // doc ends
    while shown == nil { try await Task.sleep(for: .milliseconds(1)) }
    precondition(shown == "ready in production", "onSuccess showed the container")
    precondition(splash.done == ["Open the database", "Create the repository", "Fetch a cat fact"])
}
