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

    /// Runs every step, reports the outcome through events and callbacks, and returns it.
    ///
    /// The caller has marked the run as in progress; this ends it before reporting, so a
    /// callback may start the initializer again.
    func perform() async throws -> InitializationResult<Process> {
        let tracing = RunTracing(tracer: tracer, isRepeat: previousProcess != nil, stepCount: plan.count)
        let recorder = RunRecorder(clock: clock, hub: hub, callbacks: callbacks, tracing: tracing, plan: plan)
        let process: Process
        if let carryOver, let previousProcess {
            process = carryOver(previousProcess)
        } else {
            process = createFresh()
        }
        hub.send(.started(steps: plan))
        callbacks.onStart?(plan)

        let container: Process.Container
        do throws(StepFailure) {
            switch await GraphRun(graph.steps(on: process), recorder: recorder, deadline: deadline).run() {
            case .finished: break
            case .failed(let failure): throw failure
            case .cancelled(let step): throw StepFailure.cancelled(in: step ?? containerStep)
            case .deadlineExceeded(let exceeded):
                throw StepFailure(
                    step: exceeded.pending.first?.step ?? exceeded.nextStep ?? containerStep, error: exceeded)
            }
            // A run cancelled after its last step ended is cancelled all the same.
            guard !Task.isCancelled else { throw StepFailure.cancelled(in: containerStep) }
            do {
                container = try process.toContainer
            } catch {
                throw StepFailure(step: containerStep, error: error)
            }
        } catch {
            let elapsed = recorder.now
            let failure = InitializationFailure(
                error: error.error,
                process: process,
                failedStep: error.step,
                isCancellation: error.isCancellation,
                elapsed: elapsed,
                stepTimings: recorder.stepTimings,
                report: InitializationReport(
                    planOrdered: recorder.timingsInPlanOrder, elapsed: elapsed,
                    missedDeadline: (error.error as? InitializationDeadlineExceeded)?.deadline),
                initializer: self
            )
            isRunning = false
            tracing.finish(failedStep: error.step, error: error.error, cancelled: error.isCancellation)
            RunMetrics.record(failure.report, outcome: error.isCancellation ? .cancelled : .failed)
            hub.send(.failed(step: error.step, error: error.error, elapsed: elapsed))
            hub.finishAll()
            callbacks.onError?(failure)
            throw failure
        }

        let elapsed = recorder.now
        let result = InitializationResult(
            container: container,
            process: process,
            elapsed: elapsed,
            stepTimings: recorder.stepTimings,
            report: InitializationReport(planOrdered: recorder.timingsInPlanOrder, elapsed: elapsed),
            initializer: self
        )
        isRunning = false
        tracing.finish()
        RunMetrics.record(result.report, outcome: result.isDegraded ? .degraded : .succeeded)
        hub.send(.finished(elapsed: elapsed))
        hub.finishAll()
        callbacks.onSuccess?(result)
        return result
    }
}
