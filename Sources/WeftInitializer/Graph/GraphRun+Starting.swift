import Instrumentation
import WeftPrimitives

// Starting steps: the ready queue drained, a step begun, an async attempt launched with its timer.

extension GraphRun.Scheduler {
    /// The scheduler: starts the steps without prerequisites, then handles messages until the
    /// verdict is given; then waits for the abandoned attempts, which it has cancelled.
    mutating func schedule(_ group: inout DiscardingTaskGroup) async {
        for (position, own) in graph.prerequisites.enumerated() where own.isEmpty {
            table.ready.append(position)
        }
        switch table.life {
        case .starting(let starting) where starting.remaining == 0:
            // Nothing is needed for ready: the run is ready before any step starts.
            reachReady()
        case .starting:
            // The deadline bounds the time to ready.
            if let deadline {
                let inbox = inbox
                let timer = recorder.clock.timer(until: recorder.origin + deadline, for: .runDeadline) {
                    inbox.post(.deadlinePassed)
                }
                table.life.whileStarting { $0.deadline = timer }
            }
        case .ready, .ended:
            break
        }
        drain(&group)
        while table.life.isOpen {
            let messages = await inbox.take()
            guard !messages.isEmpty else { break }
            for message in messages where table.life.isOpen {
                switch message {
                case .returned(let position, let attempt, let end, let result):
                    attemptReturned(position, attempt: attempt, at: end, result: result, &group)
                case .timedOut(let position, let attempt, let timeout):
                    timedOut(position, attempt: attempt, after: timeout, &group)
                case .delayEnded(let position, let attempt):
                    delayEnded(position, attempt: attempt, &group)
                case .cancel:
                    cancel()
                case .deadlinePassed:
                    deadlinePassed()
                }
            }
            drain(&group)
        }
        group.cancelAll()
    }

    /// Starts every ready step; sync steps run to their end here, releasing their dependents.
    ///
    /// A step needed for ready starts at the moment the sync step this pass ran before it ended:
    /// a chain of sync steps reads the clock once per step, and the scheduler's own work between
    /// two of them counts in the second. (A step after ready reads the clock afresh, so that it
    /// never starts before the moment the run got ready.)
    mutating func drain(_ group: inout DiscardingTaskGroup) {
        var lastEnd: Duration?
        while table.readyHead < table.ready.count, table.life.isOpen {
            let isStarting = if case .starting = table.life { true } else { false }
            // With a deadline, no step starts past it: a chain of synchronous steps stops there.
            if let deadline, isStarting, recorder.now >= deadline {
                deadlinePassed()
                return
            }
            let position = table.ready[table.readyHead]
            table.readyHead += 1
            // A step after ready waits for ready, however early its prerequisites finished.
            if graph.afterReady[position], isStarting {
                table.life.whileStarting { $0.deferred.append(position) }
                continue
            }
            guard !table.life.isCancelled, !Task.isCancelled else {
                cancel(before: position)
                return
            }
            lastEnd = start(position, at: graph.afterReady[position] ? nil : lastEnd, &group)
        }
    }

    /// Starts the step at `position`, at `moment` if given, else now; returns when it ended, if
    /// it was a sync step that finished.
    mutating func start(_ position: Int, at moment: Duration?, _ group: inout DiscardingTaskGroup) -> Duration? {
        let now = moment ?? recorder.now
        var latest = heldBy(position)
        // A step after ready whose prerequisites finished before ready waited for ready.
        if graph.afterReady[position], case .ready(let readyHeldBy, _) = table.life, readyHeldBy >= 0,
            latest < 0 || table.steps[latest].end < table.steps[readyHeldBy].end
        {
            latest = readyHeldBy
        }
        table.steps[position].heldBy = latest
        table.steps[position].start = now
        if graph.isPhased {
            let phase = graph.plan[position].phase
            if table.phaseStarts[phase.slot] == nil {
                table.phaseStarts[phase.slot] = now
                recorder.phaseStarted(phase)
            }
        }
        recorder.stepStarted(position)
        switch graph.works[position] {
        case .sync(let body):
            table.steps[position].state = .running(attempt: 1, since: now)
            do {
                if let context = recorder.tracing.context(of: position) {
                    try InstrumentationContext.withValue(context) { try body(graph.process) }
                } else {
                    try body(graph.process)
                }
            } catch {
                attemptFailed(position, attempt: 1, since: now, at: recorder.now, error: error, &group)
                return nil
            }
            let end = recorder.now
            attemptFinished(position, since: now, at: end)
            return end
        case .async:
            launch(position, attempt: 1, since: now, &group)
            return nil
        }
    }

    /// The prerequisite that held the step at `position` up (``HeldBy``); -1 for none. Every
    /// prerequisite has ended.
    func heldBy(_ position: Int) -> Int {
        HeldBy.latest(
            of: graph.prerequisites[position], end: { table.steps[$0].end }, after: { graph.prerequisites[$0] }) ?? -1
    }

    /// Starts an attempt of an async step as a child task, and its timeout's timer.
    mutating func launch(_ position: Int, attempt: Int, since: Duration? = nil, _ group: inout DiscardingTaskGroup) {
        guard case .async(let body) = graph.works[position] else { return }
        let since = since ?? recorder.now
        table.steps[position].state = .running(attempt: attempt, since: since)
        let origin = recorder.origin
        let operation = Self.attempt(
            body, on: graph.process, in: recorder.tracing.context(of: position),
            reporting: Report(inbox: inbox, position: position, attempt: attempt, clock: recorder.clock, origin: origin)
        )
        guard let timeout = graph.timeouts[position] else {
            group.addTask(priority: graph.priorities[position], operation: operation)
            return
        }
        // An attempt that can time out runs in a task of its own, so that a timeout cancels it
        // while the step's next attempt runs.
        let work = Task(priority: graph.priorities[position], operation: operation)
        table.attemptTasks[position] = work
        group.addTask { await work.value }
        let inbox = inbox
        let sleep = InitializationSleep.stepTimeout(step: graph.plan[position], attempt: attempt)
        table.steps[position].timer = recorder.clock.timer(until: origin + since + timeout, for: sleep) {
            inbox.post(.timedOut(position, attempt: attempt, after: timeout))
        }
    }

    /// Where an attempt reports how it ended.
    struct Report: Sendable {
        let inbox: Mailbox<Message>
        let position: Int
        let attempt: Int
        let clock: InitializationClock
        let origin: Duration

        func callAsFunction(_ result: Result<Apply?, any Error>) {
            inbox.post(.returned(position, attempt: attempt, at: clock.now() - origin, result))
        }
    }

    /// An attempt's work, one closure (one allocation besides its task), made outside the main
    /// actor so that its task starts and ends off it.
    nonisolated static func attempt(
        _ body: @escaping @Sendable (Subject) async throws -> Apply?,
        on process: Subject,
        in context: InstrumentationContext?,
        reporting report: Report
    ) -> @isolated(any) @Sendable () async -> Void {
        {
            do {
                if let context {
                    report(
                        .success(try await InstrumentationContext.withValue(context) { try await body(process) }))
                } else {
                    report(.success(try await body(process)))
                }
            } catch {
                report(.failure(error))
            }
        }
    }
}
