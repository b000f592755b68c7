/// Something that happened during a run, delivered in causal order by
/// ``DependencyInitializer/events()``.
///
/// A run yields `started`, then for each phase that has steps `phaseStarted`, the phase's
/// step events and `phaseFinished`, and ends with exactly one `finished` or `failed`.
/// A step's `stepStarted` always precedes its `stepFinished`, `stepFailed` or
/// `stepCancelled`. Async steps' events interleave. Nothing follows `finished` or `failed`:
/// the stream then finishes.
///
/// Later releases may add kinds of event: a `switch` over events needs a `default`.
public enum InitializationEvent: Sendable {
    /// The run started; `steps` is the whole plan, in run order.
    case started(steps: [InitializationStepInfo])
    /// A phase with at least one step started.
    case phaseStarted(InitializationPhase)
    /// A step started.
    case stepStarted(InitializationStepInfo)
    /// A step finished without error.
    case stepFinished(InitializationStepTiming)
    /// A step threw the error that ends the run.
    case stepFailed(InitializationStepTiming, error: any Error)
    /// An async step was still running when the run ended; it was cancelled and abandoned,
    /// and nothing it does later is reported.
    case stepCancelled(InitializationStepTiming)
    /// A phase finished without error.
    case phaseFinished(InitializationPhaseTiming)
    /// The run succeeded.
    case finished(elapsed: Duration)
    /// The run failed in `step`.
    case failed(step: InitializationStepInfo, error: any Error, elapsed: Duration)
}
