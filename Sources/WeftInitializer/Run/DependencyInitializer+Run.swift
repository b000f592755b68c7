/// The step that failed and why, while a run unwinds.
struct StepFailure: Error {
    let step: InitializationStepInfo
    let error: any Error
}

/// What one async child task reports back to the initializer.
private struct AsyncStepOutcome: Sendable {
    let index: Int
    let start: ContinuousClock.Instant
    let end: ContinuousClock.Instant
    let error: (any Error)?
}

/// The state of one run: its clock, timings and event delivery.
@MainActor
private struct RunRecorder<Process: DependencyInitializationProcess> {
    let start: ContinuousClock.Instant
    let hub: EventHub
    let callbacks: InitializationCallbacks<Process>
    var stepTimings: [InitializationStepTiming] = []
    var phaseTimings: [InitializationPhaseTiming] = []

    var now: ContinuousClock.Instant { ContinuousClock.now }
    var elapsed: Duration { now - start }

    func stepStarted(_ step: InitializationStepInfo) {
        hub.send(.stepStarted(step))
        callbacks.onStartStep?(step)
    }

    mutating func stepEnded(
        _ step: InitializationStepInfo,
        from begin: ContinuousClock.Instant,
        to end: ContinuousClock.Instant,
        outcome: InitializationStepTiming.Outcome,
        error: (any Error)? = nil
    ) {
        let timing = InitializationStepTiming(
            step: step, startOffset: begin - start, duration: end - begin, outcome: outcome)
        stepTimings.append(timing)
        switch outcome {
        case .finished:
            hub.send(.stepFinished(timing))
            callbacks.onSuccessStep?(step, timing.duration)
        case .failed:
            hub.send(.stepFailed(timing, error: error ?? CancellationError()))
        case .cancelled:
            hub.send(.stepCancelled(timing))
        }
    }

    mutating func phase(_ phase: InitializationPhase, from begin: ContinuousClock.Instant) {
        let timing = InitializationPhaseTiming(phase: phase, startOffset: begin - start, duration: now - begin)
        phaseTimings.append(timing)
        hub.send(.phaseFinished(timing))
    }
}

extension DependencyInitializer {
    /// The description of the container phase, used when `toContainer` throws.
    var containerStep: InitializationStepInfo {
        InitializationStepInfo(
            title: "Build the container", phase: .container, index: 0, position: plan.count, type: .simple)
    }

    /// Runs every phase, reports the outcome through events and callbacks, and returns it.
    func perform() async throws -> InitializationResult<Process> {
        var recorder = RunRecorder<Process>(start: ContinuousClock.now, hub: hub, callbacks: callbacks)
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
            try runSyncPhase(.preSync, steps.preSync, infos: preSyncInfos, on: process, recorder: &recorder)
            let asyncInfos = plan.filter { $0.phase == .async }
            try await runAsyncPhase(steps.async, infos: asyncInfos, on: process, recorder: &recorder)
            let postSyncInfos = plan.filter { $0.phase == .postSync }
            try runSyncPhase(.postSync, steps.postSync, infos: postSyncInfos, on: process, recorder: &recorder)
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
                phaseTimings: recorder.phaseTimings,
                initializer: self
            )
            hub.send(.failed(step: error.step, error: error.error, elapsed: elapsed))
            hub.finishAll()
            callbacks.onError?(failure, process, error.step, elapsed)
            throw failure
        }

        let elapsed = recorder.elapsed
        let result = InitializationResult(
            container: container,
            process: process,
            elapsed: elapsed,
            stepTimings: recorder.stepTimings,
            phaseTimings: recorder.phaseTimings,
            initializer: self
        )
        hub.send(.finished(elapsed: elapsed))
        hub.finishAll()
        callbacks.onSuccess?(result, elapsed)
        return result
    }

    private func runSyncPhase(
        _ phase: InitializationPhase,
        _ steps: [SyncInitializationStep<Process>],
        infos: [InitializationStepInfo],
        on process: Process,
        recorder: inout RunRecorder<Process>
    ) throws(StepFailure) {
        guard !steps.isEmpty else { return }
        let phaseStart = recorder.now
        hub.send(.phaseStarted(phase))
        for (step, info) in zip(steps, infos) {
            guard !Task.isCancelled else { throw StepFailure(step: info, error: CancellationError()) }
            recorder.stepStarted(info)
            let begin = recorder.now
            do {
                try step.body(process)
            } catch {
                recorder.stepEnded(info, from: begin, to: recorder.now, outcome: .failed, error: error)
                throw StepFailure(step: info, error: error)
            }
            recorder.stepEnded(info, from: begin, to: recorder.now, outcome: .finished)
        }
        recorder.phase(phase, from: phaseStart)
    }

    private func runAsyncPhase(
        _ steps: [AsyncInitializationStep<Process>],
        infos: [InitializationStepInfo],
        on process: Process,
        recorder: inout RunRecorder<Process>
    ) async throws(StepFailure) {
        guard !steps.isEmpty else { return }
        if Task.isCancelled, let first = infos.first {
            throw StepFailure(step: first, error: CancellationError())
        }
        let phaseStart = recorder.now
        hub.send(.phaseStarted(.async))
        let failure = await withTaskGroup(of: AsyncStepOutcome.self, returning: StepFailure?.self) { group in
            for (index, step) in steps.enumerated() {
                recorder.stepStarted(infos[index])
                group.addTask(priority: step.priority) {
                    let begin = ContinuousClock.now
                    do {
                        try await step.execute(on: process)
                        return AsyncStepOutcome(index: index, start: begin, end: .now, error: nil)
                    } catch {
                        return AsyncStepOutcome(index: index, start: begin, end: .now, error: error)
                    }
                }
            }
            var failure: StepFailure?
            for await outcome in group {
                let info = infos[outcome.index]
                switch (outcome.error, failure) {
                case (nil, _):
                    recorder.stepEnded(info, from: outcome.start, to: outcome.end, outcome: .finished)
                case (let error?, nil):
                    failure = StepFailure(step: info, error: error)
                    group.cancelAll()
                    recorder.stepEnded(info, from: outcome.start, to: outcome.end, outcome: .failed, error: error)
                case (_?, _?):
                    recorder.stepEnded(info, from: outcome.start, to: outcome.end, outcome: .cancelled)
                }
            }
            return failure
        }
        if let failure { throw failure }
        recorder.phase(.async, from: phaseStart)
    }
}
