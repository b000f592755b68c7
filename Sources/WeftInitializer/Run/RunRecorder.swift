/// The state of one run: its clock, timings and event delivery.
@MainActor
final class RunRecorder {
    let clock: InitializationClock
    /// The clock's reading when the run started; every offset counts from it.
    let origin: Duration
    let hub: EventHub
    let onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)?
    let onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)?
    private(set) var stepTimings: [InitializationStepTiming] = []

    let tracing: RunTracing

    init<Process>(
        clock: InitializationClock, hub: EventHub, callbacks: InitializationCallbacks<Process>, tracing: RunTracing
    ) {
        self.clock = clock
        self.origin = clock.now()
        self.hub = hub
        self.onStartStep = callbacks.onStartStep
        self.onSuccessStep = callbacks.onSuccessStep
        self.tracing = tracing
    }

    /// The time since the start of the run.
    var now: Duration { clock.now() - origin }

    func stepStarted(_ step: InitializationStepInfo) {
        tracing.stepStarted(step)
        if hub.hasSubscribers { hub.send(.stepStarted(step)) }
        onStartStep?(step)
    }

    func stepRetrying(_ step: InitializationStepInfo, attempt: Int, delay: Duration, error: any Error) {
        tracing.stepRetrying(step, attempt: attempt, delay: delay, error: error)
        hub.send(.stepRetrying(step, attempt: attempt, delay: delay, error: error))
    }

    func stepEnded(_ timing: InitializationStepTiming, error: (any Error)? = nil) {
        stepTimings.append(timing)
        let step = timing.step
        switch timing.outcome {
        case .finished:
            tracing.stepEnded(step, outcome: .finished, error: nil)
            if hub.hasSubscribers { hub.send(.stepFinished(timing)) }
            onSuccessStep?(step, timing.duration)
        case .failed:
            tracing.stepEnded(step, outcome: .failed, error: error)
            hub.send(.stepFailed(timing, error: error ?? CancellationError()))
        case .cancelled:
            tracing.stepEnded(step, outcome: .cancelled, error: nil)
            hub.send(.stepCancelled(timing))
        case .skipped:
            hub.send(.stepSkipped(timing))
        }
    }

    func phaseStarted(_ phase: InitializationPhase) {
        tracing.phaseStarted(phase)
        hub.send(.phaseStarted(phase))
    }

    func phase(_ phase: InitializationPhase, from begin: Duration) {
        tracing.phaseEnded(phase)
        let timing = InitializationPhaseTiming(phase: phase, startOffset: begin, duration: now - begin)
        hub.send(.phaseFinished(timing))
    }
}
