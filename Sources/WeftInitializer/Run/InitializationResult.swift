/// The outcome of a successful run: the container, the process that built it and the
/// timeline; also the way to run the repeatable steps again with `runRepeat`.
///
/// `run()` returns it as soon as the run is ready. Steps after ready
/// (``InitializationSchedule/afterReady``) then run on: ``waitForLaterSteps()`` waits for them and
/// returns the whole run's report.
@MainActor
public final class InitializationResult<Process: DependencyInitializationProcess> {
    /// The container assembled by ``DependencyInitializationProcess/toContainer``.
    public let container: Process.Container
    /// The filled process.
    public let process: Process
    /// The time from the start of the run to ready (to its end, for a run without steps after
    /// ready).
    public let elapsed: Duration
    /// Every step's start offset, duration and outcome, in completion order, up to ready.
    public let stepTimings: [InitializationStepTiming]
    /// Every step's timing in plan order, the critical chain, the blame list, and whether the
    /// run is degraded, up to ready: the steps after ready are in ``waitForLaterSteps()``'s.
    public let report: InitializationReport
    /// Whether an optional step failed (and its dependents were skipped); a repeat run
    /// retries those steps.
    public var isDegraded: Bool { report.isDegraded }
    /// The initializer that produced this result.
    public let initializer: DependencyInitializer<Process>
    /// The steps after ready, while they run; `nil` for a run without any.
    let laterSteps: LaterSteps?

    /// The on-demand steps of this run, which bind their handles; `nil` for a run without any.
    let onDemand: OnDemandRun?

    /// Whether steps after ready are still going (or yet to start).
    public var hasLaterStepsRunning: Bool { laterSteps?.report == nil && laterSteps != nil }

    /// The on-demand steps of this run that ended so far (``OnDemand``), in the order they did,
    /// each with its start offset from the start of the run, its duration, outcome and attempts.
    /// A step asked for again after it failed appears once per time it ran.
    public var onDemandSteps: [InitializationStepTiming] { onDemand?.timings ?? [] }

    /// Waits for the steps after ready to end, and returns the whole run's report: every step,
    /// ``InitializationReport/ready`` and the total time. Returns at once for a run without
    /// steps after ready (its ``report``), or once they ended.
    ///
    /// Cancelling the waiting task cancels the steps still going: they read cancelled, and this
    /// returns once they ended. So a test whose time limit passes while it waits ends the run.
    public func waitForLaterSteps() async -> InitializationReport {
        guard let laterSteps else { return report }
        return await withTaskCancellationHandler {
            await laterSteps.waitForReport()
        } onCancel: {
            laterSteps.run.cancelLaterSteps()
        }
    }

    /// Cancels the steps after ready still going, and those yet to start, which then never do.
    /// They read cancelled in the report of ``waitForLaterSteps()``. Also cancels the on-demand
    /// steps running now: their requests throw ``OnDemandStepError/Code/cancelled``, and a later
    /// request runs the step afresh.
    public func cancelLaterSteps() {
        laterSteps?.run.cancelLaterSteps()
        onDemand?.cancel()
    }

    init(
        container: Process.Container,
        process: Process,
        elapsed: Duration,
        stepTimings: [InitializationStepTiming],
        report: InitializationReport,
        initializer: DependencyInitializer<Process>,
        laterSteps: LaterSteps? = nil,
        onDemand: OnDemandRun? = nil
    ) {
        self.laterSteps = laterSteps
        self.onDemand = onDemand
        self.container = container
        self.process = process
        self.elapsed = elapsed
        self.stepTimings = stepTimings
        self.report = report
        self.initializer = initializer
    }
}

/// The steps of a run after ready, as they run: the run, and its whole report once they ended.
@MainActor
final class LaterSteps {
    let run: GraphRun
    /// The whole run's report, once the last step ended.
    private(set) var report: InitializationReport?
    private var waiters: [CheckedContinuation<InitializationReport, Never>] = []

    init(run: GraphRun) { self.run = run }

    func waitForReport() async -> InitializationReport {
        if let report { return report }
        return await withCheckedContinuation { waiters.append($0) }
    }

    func ended(with report: InitializationReport) {
        self.report = report
        let waiters = waiters
        self.waiters = []
        for waiter in waiters { waiter.resume(returning: report) }
    }
}
