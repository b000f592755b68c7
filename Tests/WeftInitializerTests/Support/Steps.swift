import WeftInitializer

/// A sync step appending its title to the process log.
func logStep(_ title: String, _ type: InitializationStepType = .simple) -> SyncInitializationStep<TestProcess> {
    SyncInitializationStep(title: title, type: type) { process in process.append(title) }
}

/// An async step recording its title in the journal and the process log.
func logStep(
    _ title: String, _ type: InitializationStepType = .simple, journal: Journal
) -> AsyncInitializationStep<TestProcess> {
    AsyncInitializationStep(title: title, type: type) { process in
        await journal.record(title)
        await process.append(title)
    }
}

/// A sync step that throws `TestError(message)`.
func failingStep(_ title: String, message: String = "boom") -> SyncInitializationStep<TestProcess> {
    SyncInitializationStep(title: title) { _ in throw TestError(message: message) }
}
