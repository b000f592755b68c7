import Instrumentation

extension DependencyInitializer {
    /// Runs every async step concurrently and waits until they all finished, or until the
    /// run ends early: at the first failure, timeout or cancellation.
    ///
    /// The run then does not wait for the steps still running: they are cancelled and
    /// abandoned, and their late results are discarded (see `AsyncPhase`).
    func runAsyncPhase(
        _ steps: [AsyncInitializationStep<Process>],
        infos: [InitializationStepInfo],
        on process: Process,
        recorder: RunRecorder<Process>
    ) async throws(StepFailure) {
        guard let firstInfo = infos.first else { return }
        guard !Task.isCancelled else { throw StepFailure(step: firstInfo, error: CancellationError()) }
        let phaseStart = recorder.now
        recorder.phaseStarted(.async)
        let phase = AsyncPhase(steps: steps, infos: infos, recorder: recorder)
        let failure = await withTaskCancellationHandler {
            await withCheckedContinuation { verdict in
                phase.start(on: process, verdict: verdict)
            }
        } onCancel: {
            Task { @MainActor in phase.cancel() }
        }
        if let failure { throw failure }
        recorder.phase(.async, from: phaseStart)
    }
}

/// One run of the async phase: the steps run as a task group in a task of their own, and
/// the run waits for a verdict that comes when every step finished, or earlier.
///
/// Everything here happens on the main actor, so the verdict is given once: a step's result
/// is applied to the process only before it, and an abandoned step's result never is.
@MainActor
final class AsyncPhase<Process: DependencyInitializationProcess> {
    /// What a step's child task reports back.
    private struct Outcome: Sendable {
        let index: Int
        let begin: ContinuousClock.Instant
        let end: ContinuousClock.Instant
        /// What to apply to the process, when the step returned a value.
        let apply: AsyncInitializationStep<Process>.Apply?
        /// The error the step threw.
        let error: (any Error)?
    }

    private let steps: [AsyncInitializationStep<Process>]
    private let infos: [InitializationStepInfo]
    private let recorder: RunRecorder<Process>
    private var verdict: CheckedContinuation<StepFailure?, Never>?
    private var stepsTask: Task<Void, Never>?
    /// When each step still running started (the phase's start); `nil` once it ended.
    private var launched: [ContinuousClock.Instant?]
    private var timers: [Task<Void, Never>?]
    private var remaining: Int

    init(steps: [AsyncInitializationStep<Process>], infos: [InitializationStepInfo], recorder: RunRecorder<Process>) {
        self.steps = steps
        self.infos = infos
        self.recorder = recorder
        self.launched = Array(repeating: nil, count: steps.count)
        self.timers = Array(repeating: nil, count: steps.count)
        self.remaining = steps.count
    }

    /// Starts every step and each timeout's timer; `verdict` receives the failure that ends
    /// the phase, or `nil` when every step finished.
    func start(on process: Process, verdict: CheckedContinuation<StepFailure?, Never>) {
        self.verdict = verdict
        // Steps start together: their timeouts count from the start of the phase.
        let start = recorder.now
        for (index, step) in steps.enumerated() {
            recorder.stepStarted(infos[index])
            launched[index] = start
            if let timeout = step.timeout {
                timers[index] = Task { [weak self] in
                    guard (try? await Task.sleep(until: start + timeout, clock: .continuous)) != nil else { return }
                    self?.timeOut(index, after: timeout)
                }
            }
        }
        let steps = steps
        let contexts = infos.map(recorder.tracing.context(of:))
        // The task keeps the phase until every step returned, abandoned ones included.
        stepsTask = Task {
            await withTaskGroup(of: Outcome.self) { group in
                for (index, step) in steps.enumerated() {
                    let body = step.body
                    let context = contexts[index]
                    group.addTask(priority: step.priority) {
                        let begin = ContinuousClock.now
                        do {
                            let apply =
                                if let context {
                                    try await InstrumentationContext.withValue(context) { try await body(process) }
                                } else {
                                    try await body(process)
                                }
                            return Outcome(index: index, begin: begin, end: .now, apply: apply, error: nil)
                        } catch {
                            return Outcome(index: index, begin: begin, end: .now, apply: nil, error: error)
                        }
                    }
                }
                for await outcome in group {
                    self.receive(outcome, on: process)
                }
            }
        }
    }

    /// Ends the phase because the run was cancelled: it fails in its first step still running.
    func cancel() {
        guard let index = launched.firstIndex(where: { $0 != nil }) else { return }
        fail(index, with: CancellationError())
    }

    private func receive(_ outcome: Outcome, on process: Process) {
        guard verdict != nil, launched[outcome.index] != nil else { return }
        if let error = outcome.error {
            fail(outcome.index, with: error, from: outcome.begin, to: outcome.end)
            return
        }
        launched[outcome.index] = nil
        timers[outcome.index]?.cancel()
        remaining -= 1
        outcome.apply?(process)
        recorder.stepEnded(infos[outcome.index], from: outcome.begin, to: outcome.end, outcome: .finished)
        if remaining == 0 { give(nil) }
    }

    private func timeOut(_ index: Int, after timeout: Duration) {
        guard verdict != nil, launched[index] != nil else { return }
        fail(index, with: InitializationStepTimeoutError(stepTitle: steps[index].title, timeout: timeout))
    }

    /// Fails the phase in the step at `index`; every other step still running is cancelled
    /// and abandoned.
    private func fail(
        _ index: Int,
        with error: any Error,
        from begin: ContinuousClock.Instant? = nil,
        to end: ContinuousClock.Instant? = nil
    ) {
        guard verdict != nil, let launchedAt = launched[index] else { return }
        let now = recorder.now
        recorder.stepEnded(infos[index], from: begin ?? launchedAt, to: end ?? now, outcome: .failed, error: error)
        launched[index] = nil
        for (other, start) in launched.enumerated() {
            guard let start else { continue }
            recorder.stepEnded(infos[other], from: start, to: now, outcome: .cancelled)
        }
        stepsTask?.cancel()
        give(StepFailure(step: infos[index], error: error))
    }

    /// Resumes the run, once; results that arrive later are discarded.
    private func give(_ failure: StepFailure?) {
        for timer in timers { timer?.cancel() }
        launched = Array(repeating: nil, count: launched.count)
        verdict?.resume(returning: failure)
        verdict = nil
    }
}
