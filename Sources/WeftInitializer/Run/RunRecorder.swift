/// A run's clock and its observers: every moment of the run is one call here, which tells the
/// run's log and then each listener (``RunObserver``).
///
/// The log is always there, and the report is read from it, so it is called directly; the
/// listeners are those the run has: its event streams always, its trace and its metrics when a
/// backend is bootstrapped, the callbacks when some were given. Of them, only those that
/// observe steps (``RunObserver/observesSteps``) are told of each step.
@MainActor
final class RunRecorder {
    let clock: InitializationClock
    /// The clock's reading when the run started; every offset counts from it.
    let origin: Duration
    /// The run's steps, by position.
    let plan: [InitializationStepInfo]
    /// The timings of the steps that ended, and when the run got ready.
    let log: RunLog
    /// The run's trace, which also gives each step's body its context.
    let tracing: RunTracing
    private let listeners: [any RunObserver]
    /// Those of them told of each step; often none.
    private let stepListeners: [any RunObserver]

    init(clock: InitializationClock, plan: [InitializationStepInfo], tracing: RunTracing, listeners: [any RunObserver])
    {
        self.clock = clock
        self.origin = clock.now()
        self.plan = plan
        self.log = RunLog(plan: plan)
        self.tracing = tracing
        self.listeners = listeners
        self.stepListeners = listeners.filter { $0.observesSteps }
    }

    /// The time since the start of the run.
    var now: Duration { clock.now() - origin }

    /// Called when the run is ready, before the steps after ready start: binds the on-demand steps.
    var onReady: (@MainActor () -> Void)?

    func started() {
        for listener in listeners { listener.started(plan) }
    }

    /// Records that the run is ready, and tells whoever listens.
    func ready() {
        let now = now
        log.ready(at: now)
        onReady?()
        for listener in listeners { listener.ready(at: now) }
    }

    func stepStarted(_ position: Int) {
        guard !stepListeners.isEmpty else { return }
        for listener in stepListeners { listener.stepStarted(position) }
    }

    func stepRetrying(_ position: Int, attempt: Int, delay: Duration, error: any Error) {
        for listener in stepListeners { listener.stepRetrying(position, attempt: attempt, delay: delay, error: error) }
    }

    /// Records how a step ended, and tells whoever listens.
    func stepEnded(
        _ position: Int, _ outcome: InitializationStepTiming.Outcome, startOffset: Duration, duration: Duration,
        heldBy: Int, attempts: [InitializationStepTiming.Attempt]?, error: (any Error)?
    ) {
        let end = StepEnd(
            position: position, startOffset: startOffset, duration: duration, outcome: outcome, heldBy: heldBy,
            attempts: attempts, error: error)
        log.stepEnded(end)
        guard !stepListeners.isEmpty else { return }
        for listener in stepListeners { listener.stepEnded(end) }
    }

    func phaseStarted(_ phase: InitializationPhase) {
        for listener in listeners { listener.phaseStarted(phase) }
    }

    func phase(_ phase: InitializationPhase, from begin: Duration) {
        let timing = InitializationPhaseTiming(phase: phase, startOffset: begin, duration: now - begin)
        for listener in listeners { listener.phaseEnded(timing) }
    }

    /// The run ended: tells whoever listens, last.
    func ended(_ end: RunEnd) {
        for listener in listeners { listener.ended(end) }
    }
}
