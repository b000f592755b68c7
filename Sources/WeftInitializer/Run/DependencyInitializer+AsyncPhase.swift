/// What tells the run that an async step ended or ran out of time.
enum AsyncStepMessage<Process: DependencyInitializationProcess>: Sendable {
    /// The step's task returned: what to apply to the process, or the error it threw.
    case ended(
        index: Int,
        begin: ContinuousClock.Instant,
        end: ContinuousClock.Instant,
        result: Result<AsyncInitializationStep<Process>.Apply?, any Error>
    )
    /// The step's timeout passed.
    case deadline(index: Int)
}

/// An async step the run still waits for.
private struct RunningStep {
    let task: Task<Void, Never>
    let timer: Task<Void, Never>?
    let launched: ContinuousClock.Instant

    /// Stops waiting: cancels the step's task, which may keep running if it ignores
    /// cancellation; whatever it returns is then discarded.
    func abandon() {
        task.cancel()
        timer?.cancel()
    }
}

extension DependencyInitializer {
    /// Runs every async step in a task of its own and waits for them, applying each result
    /// to the process as it arrives.
    ///
    /// The run waits for a step only until the run ends: at the first failure, timeout or
    /// cancellation, every step still running is cancelled and abandoned, and the phase
    /// ends at once. An abandoned step's late result is never applied, because results are
    /// applied only here, while the run still waits for the step.
    func runAsyncPhase(
        _ steps: [AsyncInitializationStep<Process>],
        infos: [InitializationStepInfo],
        on process: Process,
        recorder: inout RunRecorder<Process>
    ) async throws(StepFailure) {
        guard let firstInfo = infos.first else { return }
        guard !Task.isCancelled else { throw StepFailure(step: firstInfo, error: CancellationError()) }
        let phaseStart = recorder.now
        hub.send(.phaseStarted(.async))
        let (messages, channel) = AsyncStream<AsyncStepMessage<Process>>.makeStream()
        defer { channel.finish() }

        var running: [RunningStep?] = []
        running.reserveCapacity(steps.count)
        for (index, step) in steps.enumerated() {
            recorder.stepStarted(infos[index])
            let launched = recorder.now
            running.append(
                RunningStep(
                    task: Self.launch(step, index: index, on: process, reportingTo: channel),
                    timer: step.timeout.map { Self.deadline(launched + $0, index: index, reportingTo: channel) },
                    launched: launched
                ))
        }

        var remaining = steps.count
        var failure: StepFailure?
        // The stream ends before every step has reported only when the run is cancelled.
        for await message in messages {
            switch message {
            case .ended(let index, let begin, let end, let result):
                guard let step = running[index] else { continue }
                step.timer?.cancel()
                running[index] = nil
                remaining -= 1
                switch result {
                case .success(let apply):
                    apply?(process)
                    recorder.stepEnded(infos[index], from: begin, to: end, outcome: .finished)
                case .failure(let error):
                    recorder.stepEnded(infos[index], from: begin, to: end, outcome: .failed, error: error)
                    failure = StepFailure(step: infos[index], error: error)
                }
            case .deadline(let index):
                guard let step = running[index], let timeout = steps[index].timeout else { continue }
                step.abandon()
                running[index] = nil
                remaining -= 1
                let error = InitializationStepTimeoutError(stepTitle: steps[index].title, timeout: timeout)
                recorder.stepEnded(infos[index], from: step.launched, to: recorder.now, outcome: .failed, error: error)
                failure = StepFailure(step: infos[index], error: error)
            }
            if failure != nil || remaining == 0 { break }
        }
        if failure == nil, let index = running.firstIndex(where: { $0 != nil }), let step = running[index] {
            // Cancelled: the run fails in its first step still running.
            step.abandon()
            running[index] = nil
            let error = CancellationError()
            recorder.stepEnded(infos[index], from: step.launched, to: recorder.now, outcome: .failed, error: error)
            failure = StepFailure(step: infos[index], error: error)
        }
        if let failure {
            let end = recorder.now
            for (index, step) in running.enumerated() {
                guard let step else { continue }
                step.abandon()
                recorder.stepEnded(infos[index], from: step.launched, to: end, outcome: .cancelled)
            }
            throw failure
        }
        recorder.phase(.async, from: phaseStart)
    }

    /// Starts `step` in a task off the main actor that inherits the run's priority and
    /// task-local values, and reports its outcome to `channel`.
    private nonisolated static func launch(
        _ step: AsyncInitializationStep<Process>,
        index: Int,
        on process: Process,
        reportingTo channel: AsyncStream<AsyncStepMessage<Process>>.Continuation
    ) -> Task<Void, Never> {
        let body = step.body
        return Task(priority: step.priority) {
            let begin = ContinuousClock.now
            let result: Result<AsyncInitializationStep<Process>.Apply?, any Error>
            do {
                result = .success(try await body(process))
            } catch {
                result = .failure(error)
            }
            channel.yield(.ended(index: index, begin: begin, end: .now, result: result))
        }
    }

    /// Reports the step at `index` to `channel` at `deadline`, unless cancelled first.
    private nonisolated static func deadline(
        _ deadline: ContinuousClock.Instant,
        index: Int,
        reportingTo channel: AsyncStream<AsyncStepMessage<Process>>.Continuation
    ) -> Task<Void, Never> {
        Task {
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
            } catch {
                return
            }
            channel.yield(.deadline(index: index))
        }
    }
}
