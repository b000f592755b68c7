/// The state of one run: its clock, timings and event delivery.
///
/// Steps are named by position: a step's description is copied into an event, a callback or a
/// span only when someone listens, and into its timing once, when the run hands its timings
/// out.
@MainActor
final class RunRecorder {
    let clock: InitializationClock
    /// The clock's reading when the run started; every offset counts from it.
    let origin: Duration
    let hub: EventHub
    let onStartStep: (@MainActor @Sendable (InitializationStepInfo) -> Void)?
    let onSuccessStep: (@MainActor @Sendable (InitializationStepInfo, Duration) -> Void)?
    let tracing: RunTracing
    /// The run's steps, by position.
    let plan: [InitializationStepInfo]

    /// A step's timing, by position.
    private struct Ended {
        let position: Int
        let startOffset: Duration
        let duration: Duration
        let outcome: InitializationStepTiming.Outcome
        /// The position of the prerequisite the step waited for last; -1 for none.
        let heldBy: Int
        let attempts: [InitializationStepTiming.Attempt]?
    }

    /// Every ended step, in the order the steps ended, and where each is among them: one stored
    /// property, changed by one call per step (each access to a class's stored property is
    /// checked for exclusivity when it runs).
    private var log: EndLog

    private struct EndLog {
        /// Every ended step, in the order the steps ended.
        var ended: [Ended] = []
        /// Where each step is in `ended`, by position; -1 until it ends.
        var slots: [Int]

        mutating func append(_ step: Ended) {
            slots[step.position] = ended.count
            ended.append(step)
        }
    }

    init<Process>(
        clock: InitializationClock, hub: EventHub, callbacks: InitializationCallbacks<Process>, tracing: RunTracing,
        plan: [InitializationStepInfo]
    ) {
        self.clock = clock
        self.origin = clock.now()
        self.hub = hub
        self.onStartStep = callbacks.onStartStep
        self.onSuccessStep = callbacks.onSuccessStep
        self.tracing = tracing
        self.plan = plan
        var log = EndLog(slots: Array(repeating: -1, count: plan.count))
        log.ended.reserveCapacity(plan.count)
        self.log = log
    }

    /// Every ended step's timing, in the order the steps ended.
    var stepTimings: [InitializationStepTiming] { log.ended.map(timing) }

    /// Every ended step's timing, in plan order.
    var timingsInPlanOrder: [InitializationStepTiming] {
        var ordered: [InitializationStepTiming] = []
        let log = log
        ordered.reserveCapacity(log.ended.count)
        for slot in log.slots where slot >= 0 { ordered.append(timing(log.ended[slot])) }
        return ordered
    }

    private func timing(_ step: Ended) -> InitializationStepTiming {
        InitializationStepTiming(
            step: plan[step.position], startOffset: step.startOffset, duration: step.duration, outcome: step.outcome,
            heldBy: step.heldBy >= 0 ? plan[step.heldBy].id : nil, attempts: step.attempts)
    }

    /// The time since the start of the run.
    var now: Duration { clock.now() - origin }

    /// Called when the run is ready, before the steps after ready start: binds the on-demand steps.
    var onReady: (@MainActor () -> Void)?

    /// When the run got ready; `nil` until it does.
    private(set) var readyOffset: Duration?

    /// Records that the run is ready, and tells whoever listens.
    func ready() {
        let now = now
        readyOffset = now
        onReady?()
        if tracing.isTracing { tracing.ready(at: now) }
        hub.send(.ready(elapsed: now))
    }

    func stepStarted(_ position: Int) {
        if tracing.isTracing { tracing.stepStarted(plan[position]) }
        if hub.hasSubscribers { hub.send(.stepStarted(plan[position])) }
        if let onStartStep { onStartStep(plan[position]) }
    }

    func stepRetrying(_ position: Int, attempt: Int, delay: Duration, error: any Error) {
        if tracing.isTracing { tracing.stepRetrying(position, attempt: attempt, delay: delay, error: error) }
        hub.send(.stepRetrying(plan[position], attempt: attempt, delay: delay, error: error))
    }

    /// Records how a step ended, and tells whoever listens.
    func stepEnded(
        _ position: Int, _ outcome: InitializationStepTiming.Outcome, startOffset: Duration, duration: Duration,
        heldBy: Int, attempts: [InitializationStepTiming.Attempt]?, error: (any Error)?
    ) {
        let step = Ended(
            position: position, startOffset: startOffset, duration: duration, outcome: outcome, heldBy: heldBy,
            attempts: attempts)
        log.append(step)
        if tracing.isTracing, outcome != .skipped {
            tracing.stepEnded(position, outcome: outcome, error: outcome == .failed ? error : nil)
        }
        if hub.hasSubscribers {
            let timing = timing(step)
            switch outcome {
            case .finished: hub.send(.stepFinished(timing))
            case .failed: hub.send(.stepFailed(timing, error: error ?? CancellationError()))
            case .cancelled: hub.send(.stepCancelled(timing))
            case .skipped: hub.send(.stepSkipped(timing))
            }
        }
        if outcome == .finished, let onSuccessStep { onSuccessStep(plan[position], duration) }
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
