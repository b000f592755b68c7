import Instrumentation

/// The step that failed and why, while a run unwinds.
struct StepFailure: Error {
    let step: InitializationStepInfo
    let error: any Error
}

extension DependencyInitializer {
    /// The description of the container phase, used when `toContainer` throws or the run
    /// is cancelled after its last step.
    var containerStep: InitializationStepInfo {
        InitializationStepInfo(
            title: "Build the container", phase: .container, index: 0, position: plan.count, type: .simple)
    }

    /// Runs every phase, reports the outcome through events and callbacks, and returns it.
    ///
    /// The caller has marked the run as in progress; this ends it before reporting, so a
    /// callback may start the initializer again.
    func perform() async throws -> InitializationResult<Process> {
        let tracing = RunTracing(tracer: tracer, isRepeat: previousProcess != nil, stepCount: plan.count)
        let recorder = RunRecorder<Process>(
            start: ContinuousClock.now, hub: hub, callbacks: callbacks, tracing: tracing)
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
            let preSyncInfos = plan.filter { $0.phase == .preSync }
            try runSyncPhase(.preSync, steps.preSync, infos: preSyncInfos, on: process, recorder: recorder)
            let asyncInfos = plan.filter { $0.phase == .async }
            try await runAsyncPhase(steps.async, infos: asyncInfos, on: process, recorder: recorder)
            let postSyncInfos = plan.filter { $0.phase == .postSync }
            try runSyncPhase(.postSync, steps.postSync, infos: postSyncInfos, on: process, recorder: recorder)
            // A cancelled run fails, whichever step it was in when it was cancelled.
            guard !Task.isCancelled else { throw StepFailure(step: containerStep, error: CancellationError()) }
            do {
                container = try process.toContainer
            } catch {
                throw StepFailure(step: containerStep, error: error)
            }
        } catch {
            let elapsed = recorder.elapsed
            let failure = InitializationFailure(
                error: error.error,
                process: process,
                failedStep: error.step,
                elapsed: elapsed,
                stepTimings: recorder.stepTimings,
                initializer: self
            )
            isRunning = false
            tracing.finish(failedStep: error.step, error: error.error)
            hub.send(.failed(step: error.step, error: error.error, elapsed: elapsed))
            hub.finishAll()
            callbacks.onError?(failure)
            throw failure
        }

        let elapsed = recorder.elapsed
        let result = InitializationResult(
            container: container,
            process: process,
            elapsed: elapsed,
            stepTimings: recorder.stepTimings,
            initializer: self
        )
        isRunning = false
        tracing.finish()
        hub.send(.finished(elapsed: elapsed))
        hub.finishAll()
        callbacks.onSuccess?(result)
        return result
    }

    private func runSyncPhase(
        _ phase: InitializationPhase,
        _ steps: [SyncInitializationStep<Process>],
        infos: [InitializationStepInfo],
        on process: Process,
        recorder: RunRecorder<Process>
    ) throws(StepFailure) {
        guard !steps.isEmpty else { return }
        let phaseStart = recorder.now
        recorder.phaseStarted(phase)
        for (step, info) in zip(steps, infos) {
            guard !Task.isCancelled else { throw StepFailure(step: info, error: CancellationError()) }
            recorder.stepStarted(info)
            let begin = recorder.now
            do {
                if let context = recorder.tracing.context(of: info) {
                    try InstrumentationContext.withValue(context) { try step.body(process) }
                } else {
                    try step.body(process)
                }
            } catch {
                recorder.stepEnded(info, from: begin, to: recorder.now, outcome: .failed, error: error)
                throw StepFailure(step: info, error: error)
            }
            recorder.stepEnded(info, from: begin, to: recorder.now, outcome: .finished)
        }
        recorder.phase(phase, from: phaseStart)
    }
}
