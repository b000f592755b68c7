import Instrumentation
import WeftPrimitives

// Ending attempts and steps, and the run: retries, skips, ready, cancellation, the deadline and
// the verdict.

extension GraphRun.Scheduler {
    mutating func attemptReturned(
        _ position: Int,
        attempt: Int,
        at end: Duration,
        result: Result<Apply?, any Error>,
        _ group: inout DiscardingTaskGroup
    ) {
        guard table.life.isOpen, case .running(attempt, let since) = table.steps[position].state else { return }
        if graph.timeouts[position] != nil {
            table.steps[position].timer?.cancel()
            table.steps[position].timer = nil
            table.attemptTasks[position] = nil
        }
        switch result {
        case .success(let apply):
            apply?()
            attemptFinished(position, since: since, at: end)
        case .failure(let error):
            attemptFailed(position, attempt: attempt, since: since, at: end, error: error, &group)
        }
    }

    /// An attempt ran out of time: it is abandoned (its task runs on, cancelled, until the
    /// scheduler ends) and counts as failed.
    mutating func timedOut(_ position: Int, attempt: Int, after timeout: Duration, _ group: inout DiscardingTaskGroup) {
        guard table.life.isOpen, case .running(attempt, let since) = table.steps[position].state else { return }
        table.steps[position].timer = nil
        table.attemptTasks[position]?.cancel()
        table.attemptTasks[position] = nil
        let error = InitializationStepTimeoutError(stepTitle: graph.plan[position].title, timeout: timeout)
        attemptFailed(position, attempt: attempt, since: since, at: recorder.now, error: error, &group)
    }

    mutating func attemptFinished(_ position: Int, since: Duration, at end: Duration) {
        table.steps[position].attempts.finished(since: since, at: end)
        ended(position, .finished, at: end)
        for dependent in graph.dependents[position] {
            guard case .waiting(let count) = table.steps[dependent].state else { continue }
            table.steps[dependent].state = .waiting(count - 1)
            if count == 1 { table.ready.append(dependent) }
        }
        finishIfDone()
    }

    /// Retries the step if it has attempts left; otherwise it failed: a required step fails
    /// the run, an optional one skips its dependents.
    ///
    /// Once the run is cancelled, a failure is the cancellation's doing, or comes too late to
    /// matter: the step reads cancelled, with every other step still going.
    mutating func attemptFailed(
        _ position: Int, attempt: Int, since: Duration, at end: Duration, error: any Error,
        _ group: inout DiscardingTaskGroup
    ) {
        guard !table.life.isCancelled, !Task.isCancelled else {
            cancel()
            return
        }
        if case .retry(let next, let delay) = table.steps[position].attempts.failed(
            attempt, of: graph.plan[position].retry, since: since, at: end)
        {
            table.steps[position].state = .delayed(attempt: next)
            recorder.stepRetrying(position, attempt: next, delay: delay, error: error)
            guard delay > .zero else {
                launch(position, attempt: next, &group)
                return
            }
            let inbox = inbox
            let sleep = InitializationSleep.retryDelay(step: graph.plan[position], attempt: next)
            table.steps[position].timer = recorder.clock.timer(until: recorder.origin + end + delay, for: sleep) {
                inbox.post(.delayEnded(position, attempt: next))
            }
            return
        }
        // A step after ready never fails the run: it has been ready since before the step started.
        guard graph.plan[position].isOptional || graph.afterReady[position] else {
            fail(position, with: error, at: end)
            return
        }
        ended(position, .failed, at: end, error: error)
        skipDependents(of: position)
        finishIfDone()
    }

    mutating func delayEnded(_ position: Int, attempt: Int, _ group: inout DiscardingTaskGroup) {
        guard table.life.isOpen, case .delayed(attempt) = table.steps[position].state else { return }
        table.steps[position].timer = nil
        guard !table.life.isCancelled, !Task.isCancelled else {
            cancel()
            return
        }
        launch(position, attempt: attempt, &group)
    }

    /// Records the end of a step and counts it.
    mutating func ended(
        _ position: Int, _ outcome: InitializationStepTiming.Outcome, at end: Duration, error: (any Error)? = nil
    ) {
        table.steps[position].state = .ended
        table.steps[position].end = end
        table.unended -= 1
        if !graph.afterReady[position] { table.life.whileStarting { $0.remaining -= 1 } }
        recorder.stepEnded(
            position, outcome, startOffset: table.steps[position].start, duration: end - table.steps[position].start,
            heldBy: table.steps[position].heldBy,
            attempts: table.steps[position].attempts.ended.isEmpty && outcome == .finished
                ? nil : table.steps[position].attempts.ended,
            error: error)
        if graph.isPhased, outcome == .finished {
            let phase = graph.plan[position].phase
            table.phaseRemaining[phase.slot] -= 1
            if table.phaseRemaining[phase.slot] == 0, let begin = table.phaseStarts[phase.slot] {
                recorder.phase(phase, from: begin)
            }
        }
    }

    /// Skips every step that waits, directly or not, for `position`.
    mutating func skipDependents(of position: Int) {
        var stack = [position]
        let now = recorder.now
        while let failed = stack.popLast() {
            for dependent in graph.dependents[failed] {
                guard case .waiting = table.steps[dependent].state else { continue }
                table.steps[dependent].start = now
                table.steps[dependent].heldBy = failed
                table.steps[dependent].isSkipped = true
                ended(dependent, .skipped, at: now)
                stack.append(dependent)
            }
        }
    }

    mutating func finishIfDone() {
        switch table.life {
        case .ended:
            return
        case .starting(let starting) where starting.remaining == 0:
            // A step may have cancelled the run's task itself (the scheduler's, in which it ran).
            guard !starting.isCancelled, !Task.isCancelled else {
                give(.cancelled(nil))
                return
            }
            // Every step needed for ready ended, but the last of them ran past the deadline (a
            // synchronous step is not interrupted): the run was not ready in time all the same.
            if let deadline, recorder.now >= deadline {
                deadlinePassed()
                return
            }
            reachReady()
        case .starting, .ready:
            break
        }
        guard table.unended == 0 else { return }
        guard !table.life.isCancelled, !Task.isCancelled else {
            give(.cancelled(nil))
            return
        }
        if let begin = table.phaseStarts[InitializationPhase.graph.slot], !graph.isPhased {
            recorder.phase(.graph, from: begin)
        }
        give(.finished)
    }

    /// The run is ready: it says so, stops its deadline (which bounds the time to ready), and
    /// lets the steps after ready start; with some still to run, `run()` returns now.
    mutating func reachReady() {
        guard case .starting(let starting) = table.life else { return }
        // Of the steps needed for ready that ran and ended last, the one given last: none of the
        // others can have waited for it. (A skipped step ends when a step that ran failed.)
        var heldBy = -1
        for position in table.steps.indices where !graph.afterReady[position] && !table.steps[position].isSkipped {
            if heldBy < 0 || table.steps[position].end >= table.steps[heldBy].end { heldBy = position }
        }
        starting.deadline?.cancel()
        table.life = .ready(heldBy: heldBy, isCancelled: starting.isCancelled)
        recorder.ready()
        // With every step ended, the verdict follows at once.
        guard table.unended > 0 else { return }
        table.ready.append(contentsOf: starting.deferred)
        run.verdict?.resume(returning: .ready)
        run.verdict = nil
    }

    // MARK: Failing

    /// Ends the run because it was cancelled: every step still running or waiting out a retry
    /// delay is cancelled and abandoned, and none reads failed. The run was in the first of
    /// them in plan order or, with none, in `next`, the step it was about to start; with
    /// neither, it ends at the next step it would start.
    mutating func cancel(before next: Int? = nil) {
        guard table.life.isOpen else { return }
        table.life.markCancelled()
        guard let step = abandonAll() ?? next else { return }
        give(.cancelled(graph.plan[step]))
    }

    /// Ends the run because its deadline passed: every step still running or waiting out a
    /// retry delay is cancelled and abandoned, and the failure names them, the one that started
    /// first first. With none, it names the steps that ran across the deadline and ended after
    /// it (synchronous steps, which run to their end), else the step about to start.
    mutating func deadlinePassed() {
        guard table.life.isOpen, let deadline else { return }
        var pending: [(start: Duration, step: InitializationDeadlineExceeded.PendingStep)] = []
        for position in table.steps.indices {
            let attempt: Int
            let isWaiting: Bool
            switch table.steps[position].state {
            case .running(let current, _): (attempt, isWaiting) = (current, false)
            case .delayed(let next): (attempt, isWaiting) = (next - 1, true)  // the delay before `next`
            default: continue
            }
            let start = table.steps[position].start
            pending.append(
                (
                    start,
                    .init(
                        step: graph.plan[position], goingFor: deadline - start, attempt: attempt,
                        isWaitingToRetry: isWaiting)
                ))
        }
        if pending.isEmpty {
            for position in table.steps.indices {
                guard case .ended = table.steps[position].state, table.steps[position].start < deadline,
                    table.steps[position].end > deadline
                else { continue }
                let start = table.steps[position].start
                let attempt = max(table.steps[position].attempts.ended.count, 1)
                pending.append((start, .init(step: graph.plan[position], goingFor: deadline - start, attempt: attempt)))
            }
        }
        pending.sort { ($0.start, $0.step.step.position) < ($1.start, $1.step.step.position) }
        let next = table.readyHead < table.ready.count ? graph.plan[table.ready[table.readyHead]] : nil
        table.life.markCancelled()
        abandonAll()
        give(
            .deadlineExceeded(
                InitializationDeadlineExceeded(
                    deadline: deadline, pending: pending.map(\.step), nextStep: pending.isEmpty ? next : nil)))
    }

    /// Fails the run in `position`, whose last attempt failed at `end`; every other step still
    /// running or waiting out a retry delay is cancelled and abandoned.
    mutating func fail(_ position: Int, with error: any Error, at end: Duration) {
        guard table.life.isOpen else { return }
        ended(position, .failed, at: end, error: error)
        abandonAll()
        give(.failed(StepFailure(step: graph.plan[position], error: error)))
    }

    /// Cancels and abandons every step still running or waiting out a retry delay, in plan
    /// order, and returns the first.
    @discardableResult
    mutating func abandonAll() -> Int? {
        let now = recorder.now
        var first: Int?
        for position in table.steps.indices {
            switch table.steps[position].state {
            case .running(_, let since):
                table.steps[position].attempts.cancelled(since: since, at: now)
            case .delayed:
                break
            default:
                continue
            }
            ended(position, .cancelled, at: now)
            if first == nil { first = position }
        }
        return first
    }

    /// Resumes the run, once; results that arrive later are discarded.
    mutating func give(_ outcome: Verdict) {
        if case .starting(let starting) = table.life { starting.deadline?.cancel() }
        table.life = .ended(outcome)
        for step in table.steps { step.timer?.cancel() }
        for task in table.attemptTasks.values { task.cancel() }
        table.attemptTasks = [:]
        for position in table.steps.indices { table.steps[position].timer = nil }
        inbox.close()
        run.finalVerdict = outcome
        run.verdict?.resume(returning: outcome)
        run.verdict = nil
        let waiters = run.outcomeWaiters
        run.outcomeWaiters = []
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}

extension InitializationPhase {
    /// A small index for per-phase arrays.
    var slot: Int {
        switch self {
        case .preSync: 0
        case .async: 1
        case .postSync: 2
        case .graph: 3
        case .container: 4
        }
    }
}
