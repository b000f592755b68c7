public import WeftInitializer

/// Reads `events` until step `waiting` has started and every step of `ended` has ended: from
/// then on, `waiting` alone is going (the app's start-up deadline tests move their clock to the
/// deadline there, so that it finds the fetch, and only the fetch, still going).
public func awaitOnlyStepGoing(
    _ waiting: String, after ended: Set<String>, in events: AsyncStream<InitializationEvent>
) async {
    var seen: Set<String> = []
    var started = false
    for await event in events {
        switch event {
        case .stepStarted(let step) where step.id == waiting: started = true
        case .stepFinished(let timing), .stepFailed(let timing, _): seen.insert(timing.step.id)
        default: break
        }
        if started && seen.isSuperset(of: ended) { return }
    }
}
