import WeftInitializer

/// The optional-steps block; main runs it while the history cannot be opened.
@MainActor
func startWithoutTheHistory() async throws {
    // doc begins
    let degraded = try await initializer.run()
    if degraded.isDegraded {
        print(degraded.report.failedOptionalSteps.map(\.title))  // ["Open the history"]
        print(degraded.report.skippedSteps.map(\.title))  // ["Count unread facts"]
    }
    // doc ends
}
