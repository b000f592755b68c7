/// The outcome of a successful run: the container, the process that built it, timings,
/// and the repeatable steps for `runRepeat`.
@MainActor
public final class InitializationResult<Process: DependencyInitializationProcess> {
    /// The container assembled by ``DependencyInitializationProcess/toContainer``.
    public let container: Process.Container
    /// The filled process.
    public let process: Process
    /// The time from the start of the run to its end.
    public let elapsed: Duration
    /// Every step's start offset, duration and outcome, in completion order.
    public let stepTimings: [InitializationStepTiming]
    /// Every non-empty phase's start offset and duration, in phase order.
    public let phaseTimings: [InitializationPhaseTiming]
    /// The initializer that produced this result.
    public let initializer: DependencyInitializer<Process>

    init(
        container: Process.Container,
        process: Process,
        elapsed: Duration,
        stepTimings: [InitializationStepTiming],
        phaseTimings: [InitializationPhaseTiming],
        initializer: DependencyInitializer<Process>
    ) {
        self.container = container
        self.process = process
        self.elapsed = elapsed
        self.stepTimings = stepTimings
        self.phaseTimings = phaseTimings
        self.initializer = initializer
    }

    /// The steps a repeat run executes when no replacement lists are given.
    public var repeatableSteps: InitializationSteps<Process> { initializer.steps.repeatable }

    /// The duration of `phase`, or `nil` when the phase had no steps.
    public func duration(of phase: InitializationPhase) -> Duration? {
        phaseTimings.first { $0.phase == phase }?.duration
    }

    /// The timing of the step at `position` in the plan.
    public func timing(of step: InitializationStepInfo) -> InitializationStepTiming? {
        stepTimings.first { $0.step.position == step.position }
    }
}
