import Instrumentation
import Tracing
import WeftPrimitives

/// A handle on the value an on-demand step makes: the step runs the first time someone asks
/// for the value, not during the run.
///
/// Declare the step with ``InitializationStep/onDemand(_:title:type:after:timeout:retry:priority:produce:apply:)``
/// and ask the handle for the value where it is needed, such as a container's factory. The
/// step can run once its run is ready (`run()` has returned, or from a step after ready):
///
/// ```swift
/// let history = OnDemand<HistoryDatabase>("history")
/// let steps: [InitializationStep<AppProcess>] = [
///     .sync("settings") { process in process.settings = .standard },
///     .onDemand(history, title: "Open the history", after: ["settings"]) { process in
///         try await HistoryDatabase.open(await process.settings.historyPath)
///     },
/// ]
/// // Where it is first needed:
/// let database = try await history.value()
/// ```
///
/// - Concurrent first requests share one run of the step; once it finished, ``value()`` returns
///   its value at once.
/// - A failure is ``OnDemandStepError`` naming the step, for every request that waited for that
///   run; the next request runs the step again.
/// - A repeat run (`runRepeat`) keeps the value of a `.simple` step that finished, unless a step
///   it waits for ran again, and makes a `.repeatable` one run again at its next request; a step
///   still running is cancelled.
/// - A handle belongs to one initializer (and its repeats): the newest run that reached ready
///   with the step serves it.
@MainActor
public final class OnDemand<Value: Sendable> {
    /// The step's id, unique among its initializer's steps.
    public nonisolated let id: String

    /// Where the handle is.
    private enum State {
        case idle
        /// The step is running in this task.
        case running(Task<Void, Never>)
        case finished(Value)
    }

    private var state = State.idle
    private var binding: OnDemandBinding<Value>?
    /// Counts the step's runs, and moves on when the handle is rebound or its run cancelled: a
    /// run of the step that is no longer the handle's stores nothing and ends no request.
    private var generation = 0
    /// The tasks waiting for the running step, by token.
    private var waiters: [Int: CheckedContinuation<Result<Value, OnDemandStepError>, Never>] = [:] {
        didSet { waitersChanged?() }
    }
    private var nextToken = 0

    /// A handle for the step with this id.
    public nonisolated init(_ id: String) {
        self.id = id
    }

    /// The step's value: at once once the step finished; otherwise runs the step (or joins the
    /// run already going) and returns what it made.
    ///
    /// Cancelling the calling task stops its wait (it throws ``OnDemandStepError/Code/cancelled``);
    /// the step goes on for other requests.
    /// - Throws: ``OnDemandStepError``: the step failed (after its retries), a step it waits for
    ///   did not finish, it was cancelled, or no run of its initializer is ready yet.
    public func value() async throws(OnDemandStepError) -> Value {
        guard let binding else {
            throw OnDemandStepError(.notReady, step: OnDemandRun.unboundStep(id))
        }
        guard !binding.run.isClosed else {
            throw OnDemandStepError(.notReady, step: binding.step, runFailed: true)
        }
        switch state {
        case .finished(let value):
            return value
        case .running:
            break
        case .idle:
            start(binding)
        }
        return try await join(step: binding.step).get()
    }

    /// How many requests wait for the running step, and what to call when that changes (for tests).
    var waitingRequests: Int { waiters.count }
    var waitersChanged: (@MainActor () -> Void)?

    /// Whether the step finished and its value is kept: ``value()`` returns it at once.
    public var hasValue: Bool {
        guard let binding, !binding.run.isClosed, case .finished = state else { return false }
        return true
    }

    // MARK: Running

    /// Points the handle at a run that reached ready. A step still running for an older binding
    /// is cancelled, and its waiters read cancelled.
    func bind(_ binding: OnDemandBinding<Value>, keepingValue: Bool) {
        cancelRunning(step: binding.step)
        if case .finished = state, keepingValue {} else { state = .idle }
        self.binding = binding
        // The run keeps these: they capture the handle weakly and the step, not the binding
        // (which holds the run: a cycle).
        let step = binding.step
        binding.run.register(
            id,
            demand: { [weak self] () async throws(OnDemandStepError) in
                guard let self else { throw OnDemandStepError(.cancelled, step: step) }
                _ = try await self.value()
            },
            cancel: { [weak self] in self?.cancelRunning(step: step) })
    }

    /// Cancels the step's run, if one is going: its requests end at once, reading cancelled, and
    /// the next request starts a fresh run.
    private func cancelRunning(step: InitializationStepInfo) {
        guard case .running(let task) = state else { return }
        generation += 1
        task.cancel()
        state = .idle
        endWaiters(with: .failure(OnDemandStepError(.cancelled, step: step)))
    }

    private func start(_ binding: OnDemandBinding<Value>) {
        generation += 1
        let generation = generation
        let task = Task(priority: binding.priority) { @MainActor in
            let result = await binding.perform { value in
                // A run the handle no longer points at stores nothing.
                guard self.generation == generation else { return false }
                binding.apply(value)
                return true
            }
            self.finish(result, generation: generation)
        }
        state = .running(task)
    }

    private func finish(_ result: Result<Value, OnDemandStepError>, generation: Int) {
        guard generation == self.generation else { return }
        switch result {
        case .success(let value): state = .finished(value)
        case .failure: state = .idle
        }
        endWaiters(with: result)
    }

    private func endWaiters(with result: Result<Value, OnDemandStepError>) {
        let ending = waiters
        waiters = [:]
        for waiter in ending.values { waiter.resume(returning: result) }
    }

    /// Waits for the running step's end; a cancelled caller stops waiting.
    private func join(step: InitializationStepInfo) async -> Result<Value, OnDemandStepError> {
        let token = nextToken
        nextToken += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else {
                    continuation.resume(returning: .failure(OnDemandStepError(.cancelled, step: step)))
                    return
                }
                waiters[token] = continuation
            }
        } onCancel: {
            Task { @MainActor in
                self.waiters.removeValue(forKey: token)?
                    .resume(returning: .failure(OnDemandStepError(.cancelled, step: step)))
            }
        }
    }
}

/// What a handle runs for one run: the step, its work on that run's process, and the run.
@MainActor
struct OnDemandBinding<Value: Sendable> {
    let run: OnDemandRun
    let step: InitializationStepInfo
    let timeout: Duration?
    let priority: TaskPriority?
    let produce: @Sendable () async throws -> Value
    let apply: @MainActor @Sendable (Value) -> Void

    /// Waits for the step's prerequisites, then runs its attempts; `store` applies the value and
    /// says whether it still counts (its handle has not moved to another run).
    func perform(store: @MainActor (Value) -> Bool) async -> Result<Value, OnDemandStepError> {
        guard !Task.isCancelled else { return .failure(OnDemandStepError(.cancelled, step: step)) }
        let asked = run.now
        // The prerequisites at once: on-demand ones are asked for together, and the first
        // that did not finish, in the order named, is the failure.
        let run = run
        let step = step
        let waits = step.after.map { prerequisite in
            Task { @MainActor in await run.failure(of: prerequisite, for: step) }
        }
        let failures = await withTaskCancellationHandler {
            var failures: [OnDemandStepError?] = []
            for wait in waits { failures.append(await wait.value) }
            return failures
        } onCancel: {
            for wait in waits { wait.cancel() }
        }
        if let first = failures.lazy.compactMap({ $0 }).first { return .failure(first) }
        let start = run.now
        let heldBy = run.heldBy(step, askedAt: asked)
        // Traced in the context of the request that started it, linked to the run.
        let span = run.tracing.onDemandSpan(step)
        var attempts = StepAttempts()
        var attempt = 1
        while true {
            if Task.isCancelled {
                return .failure(ended(.cancelled, from: start, attempts.ended, heldBy: heldBy, span))
            }
            let since = run.now
            let work = { [produce, timeout, priority, attempt] () async -> Result<Value, any Error> in
                await OnDemandRun.attempt(
                    produce, step: step, attempt: attempt, timeout: timeout, priority: priority, clock: run.clock,
                    deadline: timeout.map { run.origin + since + $0 })
            }
            let result: Result<Value, any Error>
            if let span {
                result = await InstrumentationContext.withValue(span.context) { await work() }
            } else {
                result = await work()
            }
            let end = run.now
            switch result {
            case .success(let value):
                guard !Task.isCancelled, store(value) else {
                    attempts.cancelled(since: since, at: end)
                    return .failure(ended(.cancelled, from: start, to: end, attempts.ended, heldBy: heldBy, span))
                }
                attempts.finished(since: since, at: end)
                run.record(step, .finished, from: start, to: end, attempts: attempts.ended, heldBy: heldBy, span: span)
                return .success(value)
            case .failure(let error):
                if Task.isCancelled {
                    attempts.cancelled(since: since, at: end)
                    return .failure(ended(.cancelled, from: start, to: end, attempts.ended, heldBy: heldBy, span))
                }
                guard case .retry(let next, let delay) = attempts.failed(attempt, of: step.retry, since: since, at: end)
                else {
                    run.record(
                        step, .failed, from: start, to: end, attempts: attempts.ended, heldBy: heldBy, span: span,
                        error: error)
                    return .failure(
                        OnDemandStepError(.failed, step: step, underlyingError: error, attempts: attempts.ended.count))
                }
                attempt = next
                if let span { RunTracing.retrying(span, attempt: attempt, delay: delay, error: error) }
                if delay > .zero {
                    let sleep = InitializationSleep.retryDelay(step: step, attempt: attempt)
                    if await !run.clock.sleep(until: run.origin + end + delay, for: sleep) {
                        return .failure(ended(.cancelled, from: start, attempts.ended, heldBy: heldBy, span))
                    }
                }
            }
        }
    }

    private func ended(
        _ outcome: InitializationStepTiming.Outcome, from start: Duration, to end: Duration? = nil,
        _ attempts: [InitializationStepTiming.Attempt],
        heldBy: String?, _ span: (any Span)?
    ) -> OnDemandStepError {
        run.record(step, outcome, from: start, to: end ?? run.now, attempts: attempts, heldBy: heldBy, span: span)
        return OnDemandStepError(.cancelled, step: step, attempts: attempts.count)
    }
}
