/// Fans a run's events out to every subscribed stream: the observer behind
/// ``DependencyInitializer/events()``.
@MainActor
final class EventHub {
    private var continuations: [Int: AsyncStream<InitializationEvent>.Continuation] = [:]
    private var nextID = 0
    /// The plan of the run in progress, which names its steps.
    private var plan: [InitializationStepInfo] = []

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

    private var hasSubscribers: Bool { !continuations.isEmpty }

    private func send(_ event: InitializationEvent) {
        for continuation in continuations.values { continuation.yield(event) }
    }
}

extension EventHub: RunObserver {
    /// Whether a stream listens as the run starts: without one, a stream that subscribes later
    /// sees the run's moments from then on, but not its steps' (``DependencyInitializer/events()``).
    var observesSteps: Bool { hasSubscribers }

    func started(_ plan: [InitializationStepInfo]) {
        self.plan = plan
        send(.started(steps: plan))
    }

    func phaseStarted(_ phase: InitializationPhase) { send(.phaseStarted(phase)) }

    func phaseEnded(_ timing: InitializationPhaseTiming) { send(.phaseFinished(timing)) }

    func stepStarted(_ position: Int) { send(.stepStarted(plan[position])) }

    func stepRetrying(_ position: Int, attempt: Int, delay: Duration, error: any Error) {
        send(.stepRetrying(plan[position], attempt: attempt, delay: delay, error: error))
    }

    func stepEnded(_ end: StepEnd) {
        let timing = end.timing(in: plan)
        switch end.outcome {
        case .finished: send(.stepFinished(timing))
        case .failed: send(.stepFailed(timing, error: end.error ?? CancellationError()))
        case .cancelled: send(.stepCancelled(timing))
        case .skipped: send(.stepSkipped(timing))
        }
    }

    func ready(at offset: Duration) { send(.ready(elapsed: offset)) }

    /// Sends the run's last event, and finishes every stream.
    func ended(_ end: RunEnd) {
        switch end {
        case .finished(let report): send(.finished(elapsed: report.elapsed))
        case .failed(let report, let step, let error, _):
            send(.failed(step: step, error: error, elapsed: report.elapsed))
        }
        plan = []
        let finishing = continuations
        continuations.removeAll()
        for continuation in finishing.values { continuation.finish() }
    }
}
