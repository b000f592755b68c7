import WeftInitializer

/// The events block; main runs it while the history cannot be opened and the first fetch fails.
@MainActor
func watch() async throws {
    // doc begins
    let splash = Splash()
    let events = initializer.events()
    Task {
        for await event in events {
            switch event {
            case .stepRetrying(let step, let attempt, let delay, _): splash.markRetrying(step, attempt, after: delay)
            case .stepSkipped(let timing): splash.markSkipped(timing.step)
            default: break
            }
        }
    }
    let watched = try await initializer.run()
    // doc ends
    while splash.marks.count < 2 { try await Task.sleep(for: .milliseconds(1)) }
    precondition(watched.isDegraded && splash.marks.sorted() == ["fact: attempt 2", "unread: skipped"])
}
