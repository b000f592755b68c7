/// Whoever a run tells what happens, as it happens: its log (``RunLog``, the timings its report
/// is made of), its event streams (``EventHub``), the caller's callbacks, its trace
/// (``RunTracing``) and its metrics (``RunMetricsObserver``) each conform, and ``RunRecorder``
/// tells them all, one call per moment. A new kind of moment is one requirement here, with a
/// default that ignores it, and the conformers that want it.
///
/// Steps are named by position in the run's plan, which ``started(_:)`` hands over first: a
/// step's description is copied only by the observers that use it.
@MainActor
protocol RunObserver: AnyObject {
    /// Whether it is told of each step (started, retrying, ended), asked once, as the run starts:
    /// a run of many steps tells none of them to an observer that would ignore it.
    var observesSteps: Bool { get }
    /// The run started; `plan` is every step, by position.
    func started(_ plan: [InitializationStepInfo])
    func phaseStarted(_ phase: InitializationPhase)
    func phaseEnded(_ timing: InitializationPhaseTiming)
    /// The step at `position` started its first attempt.
    func stepStarted(_ position: Int)
    /// An attempt of the step at `position` failed with `error`; attempt `attempt` starts after `delay`.
    func stepRetrying(_ position: Int, attempt: Int, delay: Duration, error: any Error)
    func stepEnded(_ end: StepEnd)
    /// Every step needed for ready ended, `offset` into the run.
    func ready(at offset: Duration)
    /// The run ended: every step did, or it failed.
    func ended(_ end: RunEnd)
}

extension RunObserver {
    var observesSteps: Bool { true }
    func started(_ plan: [InitializationStepInfo]) {}
    func phaseStarted(_ phase: InitializationPhase) {}
    func phaseEnded(_ timing: InitializationPhaseTiming) {}
    func stepStarted(_ position: Int) {}
    func stepRetrying(_ position: Int, attempt: Int, delay: Duration, error: any Error) {}
    func stepEnded(_ end: StepEnd) {}
    func ready(at offset: Duration) {}
    func ended(_ end: RunEnd) {}
}

/// How a step of a run ended: its timing, by position, and the error of a step that failed.
struct StepEnd {
    let position: Int
    let startOffset: Duration
    let duration: Duration
    let outcome: InitializationStepTiming.Outcome
    /// The position of the prerequisite the step waited for last; -1 for none.
    let heldBy: Int
    let attempts: [InitializationStepTiming.Attempt]?
    /// What the step's last attempt threw, when it failed.
    let error: (any Error)?

    /// The step's timing, with its description and its holder's taken from `plan`.
    func timing(in plan: [InitializationStepInfo]) -> InitializationStepTiming {
        InitializationStepTiming(
            step: plan[position], startOffset: startOffset, duration: duration, outcome: outcome,
            heldBy: heldBy >= 0 ? plan[heldBy].id : nil, attempts: attempts)
    }
}

/// How a run ended, with its report.
enum RunEnd {
    /// Every step ended, none of them a required step that failed.
    case finished(InitializationReport)
    /// The run failed in `step` with `error`; a cancelled run's `error` is a
    /// `CancellationError`, and `step` the step it was in.
    case failed(InitializationReport, step: InitializationStepInfo, error: any Error, isCancellation: Bool)

    var report: InitializationReport {
        switch self {
        case .finished(let report), .failed(let report, _, _, _): report
        }
    }
}
