import WeftInitializer

/// The repeat block, on the result of the first block.
@MainActor
func switchToStaging() async throws {
    // doc begins
    // environment, client and fact are repeatable and run again; history and unread,
    // which finished, are kept.
    let staging = try await result.runRepeat(createProcess: { previous in
        let process = AppProcess(environment: .staging)
        process.history = previous.history
        process.unreadCount = previous.unreadCount
        return process
    })
    print(staging.report.steps.map(\.step.id))  // ["environment", "client", "fact"]
    // doc ends
    precondition(staging.container.history === result.container.history, "the history was carried over")
}
