/// The step that failed and why, while a run unwinds; for a cancelled run, the step it was
/// in and a `CancellationError`.
struct StepFailure: Error {
    let step: InitializationStepInfo
    let error: any Error
    var isCancellation = false

    /// The run was cancelled in `step`.
    static func cancelled(in step: InitializationStepInfo) -> StepFailure {
        StepFailure(step: step, error: CancellationError(), isCancellation: true)
    }
}

extension DependencyInitializer {
    /// The description of the container phase, used when `toContainer` throws or the run
    /// is cancelled after its last step.
    var containerStep: InitializationStepInfo {
        InitializationStepInfo(
            id: "container", title: "Build the container", phase: .container, index: 0, position: plan.count,
            type: .simple)
    }

    /// Runs every step needed for ready, reports the outcome through events and callbacks, and
    /// returns it; steps after ready go on in the background (``InitializationResult``'s
    /// ``InitializationResult/waitForLaterSteps()``), and the run ends when they have.
    ///
    /// The caller has marked the run as in progress; this ends it before reporting (with steps
    /// after ready, once they ended), so a callback may start the initializer again.
    func perform() async throws -> InitializationResult<Process> {
        let tracing = RunTracing(tracer: tracer, isRepeat: previousProcess != nil, stepCount: plan.count)
        var listeners: [any RunObserver] = [hub]
        if let tracing = tracing.observer { listeners.append(tracing) }
        if let metrics = RunMetrics.observer() { listeners.append(metrics) }
        if let callbacks = StepCallbacks.observer(for: callbacks) { listeners.append(callbacks) }
        let recorder = RunRecorder(clock: clock, plan: plan, tracing: tracing, listeners: listeners)
        let process: Process
        if let carryOver, let previousProcess {
            process = carryOver(previousProcess)
        } else {
            process = createFresh()
        }
        recorder.started()

        let onDemand = bindOnDemandSteps(on: process, recorder: recorder, tracing: tracing)
        let run = GraphRun(graph.steps(on: process), recorder: recorder, deadline: deadline)
        var hasLaterSteps = false
        let container: Process.Container
        do throws(StepFailure) {
            switch await run.run() {
            case .finished: break
            case .ready: hasLaterSteps = true
            case .failed(let failure): throw failure
            case .cancelled(let step): throw StepFailure.cancelled(in: step ?? containerStep)
            case .deadlineExceeded(let exceeded):
                throw StepFailure(
                    step: exceeded.pending.first?.step ?? exceeded.nextStep ?? containerStep, error: exceeded)
            }
            do throws(StepFailure) {
                // A run cancelled after its last step needed for ready ended is cancelled all the same.
                guard !Task.isCancelled else { throw StepFailure.cancelled(in: containerStep) }
                do {
                    container = try process.toContainer
                } catch {
                    throw StepFailure(step: containerStep, error: error)
                }
            } catch {
                // Nothing is ready after all: the steps after ready end, cancelled, before the failure is told.
                if hasLaterSteps {
                    run.cancelLaterSteps()
                    _ = await run.outcome()
                }
                throw error
            }
        } catch {
            // Nothing is ready: an on-demand step a step after ready asked for ends too.
            onDemand?.close()
            let elapsed = recorder.now
            let report = InitializationReport(
                planOrdered: recorder.log.timingsInPlanOrder, elapsed: elapsed, ready: nil,
                missedDeadline: (error.error as? InitializationDeadlineExceeded)?.deadline)
            let failure = InitializationFailure(
                error: error.error,
                process: process,
                failedStep: error.step,
                isCancellation: error.isCancellation,
                elapsed: elapsed,
                stepTimings: recorder.log.stepTimings,
                report: report,
                initializer: self
            )
            isRunning = false
            recorder.ended(.failed(report, step: error.step, error: error.error, isCancellation: error.isCancellation))
            callbacks.onError?(failure)
            throw failure
        }

        let ready = recorder.log.readyOffset ?? recorder.now
        let report = InitializationReport(planOrdered: recorder.log.timingsInPlanOrder, elapsed: ready, ready: ready)
        let result = InitializationResult(
            container: container,
            process: process,
            elapsed: ready,
            stepTimings: recorder.log.stepTimings,
            report: report,
            initializer: self,
            laterSteps: hasLaterSteps ? LaterSteps(run: run) : nil,
            onDemand: onDemand
        )
        guard let laterSteps = result.laterSteps else {
            end(with: report, recorder: recorder)
            callbacks.onSuccess?(result)
            return result
        }
        callbacks.onSuccess?(result)
        Task { @MainActor in
            _ = await run.outcome()
            let elapsed = recorder.now
            let report = InitializationReport(
                planOrdered: recorder.log.timingsInPlanOrder, elapsed: elapsed, ready: ready)
            self.end(with: report, recorder: recorder)
            laterSteps.ended(with: report)
        }
        return result
    }

    /// Makes the run's on-demand steps ready to be asked for once the run is ready: binds each
    /// handle to this run, with how the other steps ended by then. `nil` without on-demand steps.
    private func bindOnDemandSteps(on process: Process, recorder: RunRecorder, tracing: RunTracing) -> OnDemandRun? {
        guard !graph.onDemand.isEmpty else { return nil }
        let run = OnDemandRun(
            clock: clock, origin: recorder.origin, steps: plan, onDemand: graph.onDemandPlan, tracing: tracing)
        let isRepeat = previousProcess != nil
        let nodes = graph.onDemand
        let infos = graph.onDemandPlan
        // A repeat keeps a `.simple` step's value unless a step it waits for, directly or not,
        // runs again: a step of this run, or an on-demand step that does not keep its value.
        var keeps = nodes.map { isRepeat && $0.type == .simple }
        var again = Set(plan.map(\.id)).union(nodes.indices.filter { !keeps[$0] }.map { nodes[$0].id })
        var changed = true
        while changed {
            changed = false
            for (index, node) in nodes.enumerated() where keeps[index] && node.after.contains(where: again.contains) {
                keeps[index] = false
                again.insert(node.id)
                changed = true
            }
        }
        recorder.onReady = { [unowned recorder] in
            let timings = recorder.log.timingsInPlanOrder
            run.outcomes = Dictionary(timings.map { ($0.step.id, $0.outcome) }, uniquingKeysWith: { $1 })
            for timing in timings where timing.outcome == .finished { run.ends[timing.step.id] = timing.endOffset }
            for (index, node) in nodes.enumerated() {
                node.binder?(process, run, infos[index], keeps[index])
            }
        }
        return run
    }

    /// Ends a run that got ready, once its last step ended, and tells whoever listens.
    private func end(with report: InitializationReport, recorder: RunRecorder) {
        isRunning = false
        recorder.ended(.finished(report))
    }
}
