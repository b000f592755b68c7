/// Fans a run's events out to every subscribed stream.
@MainActor
final class EventHub {
    private var continuations: [Int: AsyncStream<InitializationEvent>.Continuation] = [:]
    private var nextID = 0

    func subscribe() -> AsyncStream<InitializationEvent> {
        let (stream, continuation) = AsyncStream<InitializationEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = nextID
        nextID += 1
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.continuations[id] = nil }
        }
        return stream
    }

    var hasSubscribers: Bool { !continuations.isEmpty }

    func send(_ event: InitializationEvent) {
        for continuation in continuations.values { continuation.yield(event) }
    }

    func finishAll() {
        let finishing = continuations
        continuations.removeAll()
        for continuation in finishing.values { continuation.finish() }
    }
}
