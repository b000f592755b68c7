import WeftInitializer

/// The callbacks block: code that cannot await starts the run and learns of it on the main actor.
@MainActor
func startFromAButton(splash: Splash) throws {
    // doc begins
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
}
