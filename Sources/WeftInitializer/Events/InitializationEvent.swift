/// Something that happened during a run, delivered in causal order by
/// ``DependencyInitializer/events()``.
///
/// A run yields `started`, then for each phase that has steps `phaseStarted`, the phase's
/// step events and `phaseFinished`, and ends with exactly one `finished` or `failed`. A run that
/// gets ready yields `ready` once, before `finished`: after the last step needed for ready
/// ended, and before any step after ready (``InitializationSchedule/afterReady``) starts.
/// A step's `stepStarted` always precedes its `stepRetrying`, `stepFinished`, `stepFailed`
/// and `stepCancelled`; a step that is skipped yields only `stepSkipped`. Async steps' events
/// interleave. Nothing follows `finished` or `failed`: the stream then finishes.
///
/// Later releases may add kinds of event: a `switch` over events needs a `default`.
public enum InitializationEvent: Sendable {
    /// The run started; `steps` is the whole plan, in run order.
    case started(steps: [InitializationStepInfo])
    /// A phase with at least one step started.
    case phaseStarted(InitializationPhase)
    /// A step started (its first attempt).
    case stepStarted(InitializationStepInfo)
    /// An attempt of a step failed with `error`; attempt number `attempt` (2 or more) starts
    /// after `delay`.
    case stepRetrying(InitializationStepInfo, attempt: Int, delay: Duration, error: any Error)
    /// A step finished without error.
    case stepFinished(InitializationStepTiming)
    /// A step failed: its last attempt threw `error`. The run ends, unless the step is
    /// optional: then its dependents are skipped and the run goes on, degraded.
    case stepFailed(InitializationStepTiming, error: any Error)
    /// A step was still running, or waiting out a retry delay, when the run ended (a required
    /// step failed, or the run was cancelled); it was cancelled and abandoned, and nothing it
    /// does later is reported. Once the run is cancelled, a step whose attempt then fails
    /// reads cancelled too: a cancelled run's steps never read failed because of it.
    case stepCancelled(InitializationStepTiming)
    /// A step did not run, because an optional step it needs failed or was skipped.
    case stepSkipped(InitializationStepTiming)
    /// A phase finished without error.
    case phaseFinished(InitializationPhaseTiming)
    /// Every step needed for ready ended, none of them a required step that failed: `run()`
    /// returns now, and steps after ready start.
    case ready(elapsed: Duration)
    /// The run succeeded (possibly degraded: see ``InitializationReport/isDegraded``); with
    /// steps after ready, once they ended too.
    case finished(elapsed: Duration)
    /// The run failed in `step`; for a cancelled run, `error` is a `CancellationError` and
    /// `step` the step it was in, which did not fail (see ``InitializationFailure/failedStep``).
    case failed(step: InitializationStepInfo, error: any Error, elapsed: Duration)
}
