import WeftInitializer

/// The running block; main runs it with the fact service up, then down.
@MainActor
func startUp() async throws {
    // doc begins
    let initializer = try DependencyInitializer(
        createProcess: { AppProcess(environment: .production) },
        preSyncSteps: preSyncSteps,
        asyncSteps: asyncSteps
    )
    do {
        let result = try await initializer.run()
        show(result.container)
    } catch let failure as InitializationFailure<AppProcess> {
        print(failure)  // Step 'Fetch the first cat fact' (async phase) failed after … ms: …
        showError(failure)
    }
    // doc ends
}
