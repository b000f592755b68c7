import WeftInitializer

/// The optional-steps block; main runs it while the history cannot be opened.
@MainActor
func startWithoutTheHistory() async throws {
    // doc begins
    let result = try await initializer.run()
    if result.isDegraded {
        print(result.report.failedOptionalSteps.map(\.title))  // ["Open the history"]
        print(result.report.skippedSteps.map(\.title))  // ["Count unread facts"]
    }
    // doc ends
}
