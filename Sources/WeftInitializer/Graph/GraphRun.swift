import Instrumentation
import WeftPrimitives

/// One run of a step graph: starts each step the moment its last prerequisite finished, runs
/// sync steps in place on the main actor and async steps in tasks of their own, retries,
/// skips, and gives a verdict when every step ended or at the first failure of a required
/// step.
///
/// The run's scheduler is a main-actor task of its own, started from the run's task (so steps
/// see the run's task-locals and priority): it runs sync steps, starts each async attempt as a
/// child task, and handles what the attempts and timers report through its inbox. Everything
/// but the steps' work happens on the main actor, so the verdict is given once: an attempt's
/// result is applied to the process only before it, and an abandoned attempt's result never
/// is. The run does not wait for abandoned attempts; the scheduler's task does.
@MainActor
final class GraphRun {
    /// Where a step is.
    private enum State {
        /// Waiting for this many prerequisites to finish.
        case waiting(Int)
        /// Waiting out the delay before this attempt.
        case delayed(attempt: Int)
        /// This attempt is running.
        case running(attempt: Int, since: Duration)
        case ended
    }

    /// What the scheduler learns from attempts, timers and the run's task.
    private enum Message: Sendable {
        case returned(Int, attempt: Int, at: Duration, Result<Apply?, any Error>)
        case timedOut(Int, attempt: Int, after: Duration)
        case delayEnded(Int, attempt: Int)
        case cancel
        /// The run's deadline passed.
        case deadlinePassed
    }

    /// How a run of the graph ended, or that it is ready.
    enum Verdict {
        /// Every step ended, and no required step failed.
        case finished
        /// Every step needed for ready ended, none of them a required failure, and steps after
        /// ready are still to run: the run goes on, and ``outcome()`` gives how it ended.
        case ready
        /// A required step failed.
        case failed(StepFailure)
        /// The run was cancelled in `step`: the first, in plan order, of the steps it cancelled,
        /// or with none running the step it was about to start; `nil` once every step ended.
        case cancelled(InitializationStepInfo?)
        /// The run's deadline passed with these steps still going (cancelled and abandoned).
        case deadlineExceeded(InitializationDeadlineExceeded)
    }

    /// Stores an attempt's result into the process, on the main actor.
    typealias Apply = @MainActor @Sendable () -> Void

    /// The run's process, as a step's work takes it.
    typealias Subject = any AnyObject & Sendable

    /// A step's work, given the run's process.
    enum Work: Sendable {
        case sync(@MainActor @Sendable (Subject) throws -> Void)
        case async(@Sendable (Subject) async throws -> Apply?)
    }

    /// What the run needs of each step, by position.
    struct Steps {
        var plan: [InitializationStepInfo]
        var prerequisites: [[Int]]
        var dependents: [[Int]]
        var works: [Work]
        var timeouts: [Duration?]
        var priorities: [TaskPriority?]
        var isPhased: Bool
        var process: Subject
        /// Whether each step runs after ready.
        var afterReady: [Bool]
    }

    private let plan: [InitializationStepInfo]
    private let prerequisites: [[Int]]
    private let dependents: [[Int]]
    private let works: [Work]
    private let timeouts: [Duration?]
    private let priorities: [TaskPriority?]
    private let isPhased: Bool
    private let process: Subject
    private let afterReady: [Bool]
    private let recorder: RunRecorder
    /// The run's deadline, from its start; `nil` for none.
    private let deadline: Duration?
    private var verdict: CheckedContinuation<Verdict, Never>?
    /// How the run ended, once it has; given to ``outcome()``'s callers.
    private var finalVerdict: Verdict?
    private var outcomeWaiters: [CheckedContinuation<Verdict, Never>] = []
    private let inbox = Mailbox<Message>()
    /// The scheduler's task, which the run's cancellation cancels from any thread.
    private let scheduler = Locked<Task<Void, Never>?>(nil)
    /// Where each step and the run are: touched by the scheduler alone, on the main actor.
    private var table: Table

    /// Where each step and the run are.
    private struct Table {
        /// Every step's state, by position: one array, one allocation for the run.
        var steps: [StepRun]
        /// The task of each running attempt that can time out, for cancelling it.
        var attemptTasks: [Int: Task<Void, Never>] = [:]
        /// Steps whose prerequisites have finished, in the order they became ready.
        var ready: [Int] = []
        var readyHead = 0
        var unended: Int
        /// Set when the run was cancelled; no step starts after.
        var isCancelled = false
        /// Whether the verdict is still to be given (`verdict != nil`, kept as a flag: every
        /// step asks, and reading the optional continuation retains it).
        var isOpen = true
        /// For the three phases: how many steps of each phase have not ended, and when each began.
        var phaseRemaining = [Int](repeating: 0, count: 5)
        var phaseStarts = [Duration?](repeating: nil, count: 5)
        /// The timer of the run's deadline, if it has one.
        var deadlineTimer: Task<Void, Never>?
        /// How many steps needed for ready have not ended.
        var readyRemaining: Int
        /// Whether the run is ready: steps after ready may start.
        var isReady = false
        /// Steps after ready whose prerequisites finished before the run was ready.
        var deferred: [Int] = []
        /// The step needed for ready that ended last, which held every step after ready whose
        /// prerequisites finished earlier; -1 until ready, or with no step needed for ready.
        var readyHeldBy = -1
    }

    /// Where one step is.
    private struct StepRun {
        var state: State
        /// When the step's first attempt started.
        var start = Duration.zero
        var end = Duration.zero
        /// The step's attempts that ended, and what its retry policy makes of a failure.
        var attempts: StepAttempts
        /// The position of the prerequisite the step waited for last; -1 for none.
        var heldBy = -1
        /// The running attempt's timeout, or the retry delay being waited out.
        var timer: Task<Void, Never>?
        /// Whether the step was skipped (it never ran).
        var isSkipped = false
    }

    init(_ steps: Steps, recorder: RunRecorder, deadline: Duration? = nil) {
        self.deadline = deadline
        plan = steps.plan
        prerequisites = steps.prerequisites
        dependents = steps.dependents
        works = steps.works
        timeouts = steps.timeouts
        priorities = steps.priorities
        isPhased = steps.isPhased
        process = steps.process
        afterReady = steps.afterReady
        self.recorder = recorder
        let count = plan.count
        var table = Table(
            steps: zip(prerequisites, plan).map {
                StepRun(state: .waiting($0.count), attempts: StepAttempts($1.retry))
            },
            unended: count,
            readyRemaining: afterReady.lazy.filter { !$0 }.count)
        table.ready.reserveCapacity(count)
        if isPhased {
            for step in plan { table.phaseRemaining[step.phase.slot] += 1 }
        }
        self.table = table
    }

    /// Runs the graph and returns how it ended, or ``Verdict/ready`` once it is ready with steps
    /// after ready still to run; ``outcome()`` then says how it ended.
    ///
    /// Cancelling the calling task cancels the run until it is ready; after, ``cancelLaterSteps()``
    /// does.
    func run() async -> Verdict {
        // Only on-demand steps: ready at once.
        guard !plan.isEmpty else {
            recorder.ready()
            return .finished
        }
        if !isPhased {
            table.phaseStarts[InitializationPhase.graph.slot] = recorder.now
            recorder.phaseStarted(.graph)
        }
        let inbox = inbox
        return await withTaskCancellationHandler {
            await withCheckedContinuation { verdict in
                self.verdict = verdict
                // Cancelled before it began: the scheduler ends the run at the first step instead
                // of starting it (the cancellation handler ran before there was a task to cancel).
                if Task.isCancelled { table.isCancelled = true }
                let task = Task { await self.schedule() }
                scheduler.withLock { $0 = task }
            }
        } onCancel: {
            inbox.post(.cancel)
            scheduler.withLock { $0?.cancel() }
        }
    }

    /// How the run ended: at once once it has, else when it does.
    func outcome() async -> Verdict {
        if let finalVerdict { return finalVerdict }
        return await withCheckedContinuation { outcomeWaiters.append($0) }
    }

    /// Cancels the steps after ready still going or yet to start; the run then ends, cancelled.
    /// Does nothing once it has ended.
    nonisolated func cancelLaterSteps() {
        inbox.post(.cancel)
        scheduler.withLock { $0?.cancel() }
    }

    /// The scheduler: starts the steps without prerequisites, then handles messages until the
    /// verdict is given; then waits for the abandoned attempts, which it has cancelled.
    private func schedule() async {
        await withDiscardingTaskGroup { group in
            for (position, own) in prerequisites.enumerated() where own.isEmpty {
                table.ready.append(position)
            }
            // Nothing is needed for ready: the run is ready before any step starts.
            if table.readyRemaining == 0 { reachReady() }
            if let deadline {
                let inbox = inbox
                table.deadlineTimer = Self.timer(
                    until: recorder.origin + deadline, on: recorder.clock, for: .runDeadline
                ) {
                    inbox.post(.deadlinePassed)
                }
            }
            drain(&group)
            guard table.isOpen else { return }
            while table.isOpen {
                let messages = await inbox.take()
                guard !messages.isEmpty else { break }
                for message in messages where table.isOpen {
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
    }

    // MARK: Starting

    /// Starts every ready step; sync steps run to their end here, releasing their dependents.
    private func drain(_ group: inout DiscardingTaskGroup) {
        while table.readyHead < table.ready.count, table.isOpen {
            // With a deadline, no step starts past it: a chain of synchronous steps stops there.
            if let deadline, !table.isReady, recorder.now >= deadline {
                deadlinePassed()
                return
            }
            let position = table.ready[table.readyHead]
            table.readyHead += 1
            // A step after ready waits for ready, however early its prerequisites finished.
            if afterReady[position], !table.isReady {
                table.deferred.append(position)
                continue
            }
            guard !table.isCancelled, !Task.isCancelled else {
                cancel(before: position)
                return
            }
            start(position, &group)
        }
    }

    private func start(_ position: Int, _ group: inout DiscardingTaskGroup) {
        let now = recorder.now
        // The prerequisite that finished last; of several that finished at the same moment, the
        // one named last, unless another of them waited for it (it then ended before that one).
        var latest = -1
        for prerequisite in prerequisites[position]
        where latest < 0 || table.steps[prerequisite].end > table.steps[latest].end
            || (table.steps[prerequisite].end == table.steps[latest].end && !waits(latest, for: prerequisite))
        {
            latest = prerequisite
        }
        // A step after ready whose prerequisites finished before ready waited for ready.
        if afterReady[position], table.readyHeldBy >= 0,
            latest < 0 || table.steps[latest].end < table.steps[table.readyHeldBy].end
        {
            latest = table.readyHeldBy
        }
        table.steps[position].heldBy = latest
        table.steps[position].start = now
        if isPhased {
            let phase = plan[position].phase
            if table.phaseStarts[phase.slot] == nil {
                table.phaseStarts[phase.slot] = now
                recorder.phaseStarted(phase)
            }
        }
        recorder.stepStarted(position)
        switch works[position] {
        case .sync(let body):
            table.steps[position].state = .running(attempt: 1, since: now)
            do {
                if let context = recorder.tracing.context(of: position) {
                    try InstrumentationContext.withValue(context) { try body(process) }
                } else {
                    try body(process)
                }
            } catch {
                attemptFailed(position, attempt: 1, since: now, at: recorder.now, error: error, &group)
                return
            }
            attemptFinished(position, since: now, at: recorder.now)
        case .async:
            launch(position, attempt: 1, since: now, &group)
        }
    }

    /// Whether `step` waited, directly or not, for `other`, a step that finished at the same
    /// moment (so every step between them did too). Asked only when two ends tie.
    private func waits(_ step: Int, for other: Int) -> Bool {
        let end = table.steps[step].end
        var stack = [step]
        var seen: Set<Int> = [step]
        while let next = stack.popLast() {
            for prerequisite in prerequisites[next] where table.steps[prerequisite].end == end {
                if prerequisite == other { return true }
                if seen.insert(prerequisite).inserted { stack.append(prerequisite) }
            }
        }
        return false
    }

    /// Starts an attempt of an async step as a child task, and its timeout's timer.
    private func launch(_ position: Int, attempt: Int, since: Duration? = nil, _ group: inout DiscardingTaskGroup) {
        guard case .async(let body) = works[position] else { return }
        let since = since ?? recorder.now
        table.steps[position].state = .running(attempt: attempt, since: since)
        let origin = recorder.origin
        let operation = Self.attempt(
            body, on: process, in: recorder.tracing.context(of: position),
            reporting: Report(inbox: inbox, position: position, attempt: attempt, clock: recorder.clock, origin: origin)
        )
        guard let timeout = timeouts[position] else {
            group.addTask(priority: priorities[position], operation: operation)
            return
        }
        // An attempt that can time out runs in a task of its own, so that a timeout cancels it
        // while the step's next attempt runs.
        let work = Task(priority: priorities[position], operation: operation)
        table.attemptTasks[position] = work
        group.addTask { await work.value }
        let inbox = inbox
        let sleep = InitializationSleep.stepTimeout(step: plan[position], attempt: attempt)
        table.steps[position].timer = Self.timer(until: origin + since + timeout, on: recorder.clock, for: sleep) {
            inbox.post(.timedOut(position, attempt: attempt, after: timeout))
        }
    }

    /// Where an attempt reports how it ended.
    private struct Report: Sendable {
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
    private nonisolated static func attempt(
        _ body: @escaping @Sendable (Subject) async throws -> Apply?,
        on process: Subject,
        in context: InstrumentationContext?,
        reporting report: Report
    ) -> @isolated(any) @Sendable () async -> Void {
        {
            do {
                if let context {
                    report(.success(try await InstrumentationContext.withValue(context) { try await body(process) }))
                } else {
                    report(.success(try await body(process)))
                }
            } catch {
                report(.failure(error))
            }
        }
    }

    /// A task that calls `fire` at `deadline`, unless it is cancelled first; its sleep says
    /// what it waits for (``InitializationSleep``).
    private static func timer(
        until deadline: Duration, on clock: InitializationClock, for sleep: InitializationSleep,
        fire: @escaping @Sendable () -> Void
    ) -> Task<Void, Never> {
        Task.detached {
            let slept = await InitializationSleep.$current.withValue(sleep) {
                (try? await clock.sleepUntil(deadline)) != nil
            }
            guard slept else { return }
            fire()
        }
    }

    // MARK: Ending attempts

    private func attemptReturned(
        _ position: Int,
        attempt: Int,
        at end: Duration,
        result: Result<Apply?, any Error>,
        _ group: inout DiscardingTaskGroup
    ) {
        guard table.isOpen, case .running(attempt, let since) = table.steps[position].state else { return }
        if timeouts[position] != nil {
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
    private func timedOut(_ position: Int, attempt: Int, after timeout: Duration, _ group: inout DiscardingTaskGroup) {
        guard table.isOpen, case .running(attempt, let since) = table.steps[position].state else { return }
        table.steps[position].timer = nil
        table.attemptTasks[position]?.cancel()
        table.attemptTasks[position] = nil
        let error = InitializationStepTimeoutError(stepTitle: plan[position].title, timeout: timeout)
        attemptFailed(position, attempt: attempt, since: since, at: recorder.now, error: error, &group)
    }

    private func attemptFinished(_ position: Int, since: Duration, at end: Duration) {
        table.steps[position].attempts.finished(since: since, at: end)
        ended(position, .finished, at: end)
        for dependent in dependents[position] {
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
    private func attemptFailed(
        _ position: Int, attempt: Int, since: Duration, at end: Duration, error: any Error,
        _ group: inout DiscardingTaskGroup
    ) {
        guard !table.isCancelled, !Task.isCancelled else {
            cancel()
            return
        }
        if case .retry(let next, let delay) = table.steps[position].attempts.failed(attempt, since: since, at: end) {
            table.steps[position].state = .delayed(attempt: next)
            recorder.stepRetrying(position, attempt: next, delay: delay, error: error)
            guard delay > .zero else {
                launch(position, attempt: next, &group)
                return
            }
            let inbox = inbox
            let sleep = InitializationSleep.retryDelay(step: plan[position], attempt: next)
            table.steps[position].timer = Self.timer(
                until: recorder.origin + end + delay, on: recorder.clock, for: sleep
            ) {
                inbox.post(.delayEnded(position, attempt: next))
            }
            return
        }
        // A step after ready never fails the run: it has been ready since before the step started.
        guard plan[position].isOptional || afterReady[position] else {
            fail(position, with: error, at: end)
            return
        }
        ended(position, .failed, at: end, error: error)
        skipDependents(of: position)
        finishIfDone()
    }

    private func delayEnded(_ position: Int, attempt: Int, _ group: inout DiscardingTaskGroup) {
        guard table.isOpen, case .delayed(attempt) = table.steps[position].state else { return }
        table.steps[position].timer = nil
        guard !table.isCancelled, !Task.isCancelled else {
            cancel()
            return
        }
        launch(position, attempt: attempt, &group)
    }

    /// Records the end of a step and counts it.
    private func ended(
        _ position: Int, _ outcome: InitializationStepTiming.Outcome, at end: Duration, error: (any Error)? = nil
    ) {
        table.steps[position].state = .ended
        table.steps[position].end = end
        table.unended -= 1
        if !afterReady[position] { table.readyRemaining -= 1 }
        recorder.stepEnded(
            position, outcome, startOffset: table.steps[position].start, duration: end - table.steps[position].start,
            heldBy: table.steps[position].heldBy,
            attempts: table.steps[position].attempts.ended.isEmpty && outcome == .finished
                ? nil : table.steps[position].attempts.ended,
            error: error)
        if isPhased, outcome == .finished {
            let phase = plan[position].phase
            table.phaseRemaining[phase.slot] -= 1
            if table.phaseRemaining[phase.slot] == 0, let begin = table.phaseStarts[phase.slot] {
                recorder.phase(phase, from: begin)
            }
        }
    }

    /// Skips every step that waits, directly or not, for `position`.
    private func skipDependents(of position: Int) {
        var stack = [position]
        let now = recorder.now
        while let failed = stack.popLast() {
            for dependent in dependents[failed] {
                guard case .waiting = table.steps[dependent].state else { continue }
                table.steps[dependent].start = now
                table.steps[dependent].heldBy = failed
                table.steps[dependent].isSkipped = true
                ended(dependent, .skipped, at: now)
                stack.append(dependent)
            }
        }
    }

    private func finishIfDone() {
        guard table.isOpen else { return }
        if !table.isReady, table.readyRemaining == 0 {
            // A step may have cancelled the run's task itself (the scheduler's, in which it ran).
            guard !table.isCancelled, !Task.isCancelled else {
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
        }
        guard table.unended == 0 else { return }
        guard !table.isCancelled, !Task.isCancelled else {
            give(.cancelled(nil))
            return
        }
        if let begin = table.phaseStarts[InitializationPhase.graph.slot], !isPhased {
            recorder.phase(.graph, from: begin)
        }
        give(.finished)
    }

    /// The run is ready: it says so, stops its deadline (which bounds the time to ready), and
    /// lets the steps after ready start; with some still to run, `run()` returns now.
    private func reachReady() {
        table.isReady = true
        // Of the steps needed for ready that ran and ended last, the one given last: none of the
        // others can have waited for it. (A skipped step ends when a step that ran failed.)
        for position in table.steps.indices where !afterReady[position] && !table.steps[position].isSkipped {
            if table.readyHeldBy < 0 || table.steps[position].end >= table.steps[table.readyHeldBy].end {
                table.readyHeldBy = position
            }
        }
        recorder.ready()
        guard table.unended > 0 else { return }
        table.deadlineTimer?.cancel()
        table.deadlineTimer = nil
        table.ready.append(contentsOf: table.deferred)
        table.deferred = []
        verdict?.resume(returning: .ready)
        verdict = nil
    }

    // MARK: Failing

    /// Ends the run because it was cancelled: every step still running or waiting out a retry
    /// delay is cancelled and abandoned, and none reads failed. The run was in the first of
    /// them in plan order or, with none, in `next`, the step it was about to start; with
    /// neither, it ends at the next step it would start.
    private func cancel(before next: Int? = nil) {
        guard table.isOpen else { return }
        table.isCancelled = true
        guard let step = abandonAll() ?? next else { return }
        give(.cancelled(plan[step]))
    }

    /// Ends the run because its deadline passed: every step still running or waiting out a
    /// retry delay is cancelled and abandoned, and the failure names them, the one that started
    /// first first. With none, it names the steps that ran across the deadline and ended after
    /// it (synchronous steps, which run to their end), else the step about to start.
    private func deadlinePassed() {
        guard table.isOpen, let deadline else { return }
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
                        step: plan[position], goingFor: deadline - start, attempt: attempt, isWaitingToRetry: isWaiting)
                ))
        }
        if pending.isEmpty {
            for position in table.steps.indices {
                guard case .ended = table.steps[position].state, table.steps[position].start < deadline,
                    table.steps[position].end > deadline
                else { continue }
                let start = table.steps[position].start
                let attempt = max(table.steps[position].attempts.ended.count, 1)
                pending.append((start, .init(step: plan[position], goingFor: deadline - start, attempt: attempt)))
            }
        }
        pending.sort { ($0.start, $0.step.step.position) < ($1.start, $1.step.step.position) }
        let next = table.readyHead < table.ready.count ? plan[table.ready[table.readyHead]] : nil
        table.isCancelled = true
        abandonAll()
        give(
            .deadlineExceeded(
                InitializationDeadlineExceeded(
                    deadline: deadline, pending: pending.map(\.step), nextStep: pending.isEmpty ? next : nil)))
    }

    /// Fails the run in `position`, whose last attempt failed at `end`; every other step still
    /// running or waiting out a retry delay is cancelled and abandoned.
    private func fail(_ position: Int, with error: any Error, at end: Duration) {
        guard table.isOpen else { return }
        ended(position, .failed, at: end, error: error)
        abandonAll()
        give(.failed(StepFailure(step: plan[position], error: error)))
    }

    /// Cancels and abandons every step still running or waiting out a retry delay, in plan
    /// order, and returns the first.
    @discardableResult
    private func abandonAll() -> Int? {
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
    private func give(_ outcome: Verdict) {
        table.deadlineTimer?.cancel()
        table.deadlineTimer = nil
        for step in table.steps { step.timer?.cancel() }
        for task in table.attemptTasks.values { task.cancel() }
        table.attemptTasks = [:]
        for position in table.steps.indices { table.steps[position].timer = nil }
        inbox.close()
        table.isOpen = false
        verdict?.resume(returning: outcome)
        verdict = nil
        finalVerdict = outcome
        let waiters = outcomeWaiters
        outcomeWaiters = []
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}

extension InitializationPhase {
    /// A small index for per-phase arrays.
    fileprivate var slot: Int {
        switch self {
        case .preSync: 0
        case .async: 1
        case .postSync: 2
        case .graph: 3
        case .container: 4
        }
    }
}
