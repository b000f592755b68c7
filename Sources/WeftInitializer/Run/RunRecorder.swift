/// The state of one run: its clock, timings and event delivery.
@MainActor
final class RunRecorder<Process: DependencyInitializationProcess> {
    let start: ContinuousClock.Instant
    let hub: EventHub
    let callbacks: InitializationCallbacks<Process>
    private(set) var stepTimings: [InitializationStepTiming] = []

    let tracing: RunTracing

    init(
        start: ContinuousClock.Instant, hub: EventHub, callbacks: InitializationCallbacks<Process>, tracing: RunTracing
    ) {
        self.start = start
        self.hub = hub
        self.callbacks = callbacks
        self.tracing = tracing
    }

    var now: ContinuousClock.Instant { ContinuousClock.now }
    var elapsed: Duration { now - start }

    func stepStarted(_ step: InitializationStepInfo) {
        tracing.stepStarted(step)
        hub.send(.stepStarted(step))
        callbacks.onStartStep?(step)
    }

    func stepEnded(
        _ step: InitializationStepInfo,
        from begin: ContinuousClock.Instant,
        to end: ContinuousClock.Instant,
        outcome: InitializationStepTiming.Outcome,
        error: (any Error)? = nil
    ) {
        let timing = InitializationStepTiming(
            step: step, startOffset: begin - start, duration: end - begin, outcome: outcome)
        stepTimings.append(timing)
        tracing.stepEnded(step, outcome: outcome, error: error)
        switch outcome {
        case .finished:
            hub.send(.stepFinished(timing))
            callbacks.onSuccessStep?(step, timing.duration)
        case .failed:
            hub.send(.stepFailed(timing, error: error ?? CancellationError()))
        case .cancelled:
            hub.send(.stepCancelled(timing))
        }
    }

    func phaseStarted(_ phase: InitializationPhase) {
        tracing.phaseStarted(phase)
        hub.send(.phaseStarted(phase))
    }

    func phase(_ phase: InitializationPhase, from begin: ContinuousClock.Instant) {
        tracing.phaseEnded(phase)
        let timing = InitializationPhaseTiming(phase: phase, startOffset: begin - start, duration: now - begin)
        hub.send(.phaseFinished(timing))
    }
}
