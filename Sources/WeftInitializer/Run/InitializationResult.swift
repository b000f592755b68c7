/// The outcome of a successful run: the container, the process that built it and the
/// timeline; also the way to run the repeatable steps again with `runRepeat`.
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
    /// Every step's timing in plan order, the critical chain, the blame list, and whether the
    /// run is degraded.
    public let report: InitializationReport
    /// Whether an optional step failed (and its dependents were skipped); a repeat run
    /// retries those steps.
    public var isDegraded: Bool { report.isDegraded }
    /// The initializer that produced this result.
    public let initializer: DependencyInitializer<Process>

    init(
        container: Process.Container,
        process: Process,
        elapsed: Duration,
        stepTimings: [InitializationStepTiming],
        report: InitializationReport,
        initializer: DependencyInitializer<Process>
    ) {
        self.container = container
        self.process = process
        self.elapsed = elapsed
        self.stepTimings = stepTimings
        self.report = report
        self.initializer = initializer
    }
}
