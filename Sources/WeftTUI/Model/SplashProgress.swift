import WeftInitializer
import WeftTerminal

/// The live state of the run in flight: every planned step and how far it got.
struct SplashProgress: Sendable {
    /// How far one step got.
    enum StepProgress: Sendable, Hashable {
        /// Not started yet.
        case pending
        /// Started, not ended.
        case running
        /// An attempt failed; attempt `attempt` of `of` is running or about to.
        case retrying(attempt: Int, of: Int)
        /// Did not run: an optional step it needs failed.
        case skipped
        /// Finished after `duration`.
        case done(Duration)
        /// Failed: ended the run, or (for an optional step) left it degraded.
        case failed
        /// Cancelled after another step failed or the person quit.
        case cancelled
    }

    /// The environment being initialized.
    var environment: String
    /// Which attempt at this environment the run is: 1, then 2, 3, … for retries.
    var attempt = 1
    /// The steps of the run, in plan order.
    var steps: [InitializationStepInfo]
    /// Progress by step position; steps not listed are pending.
    var progress: [Int: StepProgress] = [:]

    /// Creates the progress of a run that has not started yet.
    init(environment: String, steps: [InitializationStepInfo]) {
        self.environment = environment
        self.steps = steps
    }

    /// How far `step` got.
    func progress(of step: InitializationStepInfo) -> StepProgress {
        progress[step.position] ?? .pending
    }

    /// Records `event`.
    mutating func apply(_ event: InitializationEvent) {
        switch event {
        case .started(let planned):
            if steps.isEmpty { steps = planned }
        case .stepStarted(let step):
            progress[step.position] = .running
        case .stepFinished(let timing):
            progress[timing.step.position] = .done(timing.duration)
        case .stepFailed(let timing, _):
            progress[timing.step.position] = .failed
        case .stepCancelled(let timing):
            progress[timing.step.position] = .cancelled
        case .stepRetrying(let step, let attempt, _, _):
            progress[step.position] = .retrying(attempt: attempt, of: step.retry.attempts)
        case .stepSkipped(let timing):
            progress[timing.step.position] = .skipped
        case .failed(let step, _, _):
            progress[step.position] = .failed
        case .phaseStarted, .phaseFinished, .ready, .finished:
            break
        }
    }
}
