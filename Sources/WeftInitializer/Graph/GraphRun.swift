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
    enum State {
        /// Waiting for this many prerequisites to finish.
        case waiting(Int)
        /// Waiting out the delay before this attempt.
        case delayed(attempt: Int)
        /// This attempt is running.
        case running(attempt: Int, since: Duration)
        case ended
    }

    /// What the scheduler learns from attempts, timers and the run's task.
    enum Message: Sendable {
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

    /// What the run needs of each step: handed to its scheduler.
    let steps: Steps
    let recorder: RunRecorder
    /// The run's deadline, from its start; `nil` for none.
    let deadline: Duration?
    /// `run()`'s caller, resumed at ready or with the verdict, whichever comes first.
    var verdict: CheckedContinuation<Verdict, Never>?
    /// ``outcome()``'s callers, resumed with the verdict.
    var outcomeWaiters: [CheckedContinuation<Verdict, Never>] = []
    /// How the run ended, once it has.
    var finalVerdict: Verdict?
    let inbox = Mailbox<Message>()
    /// The scheduler's task, which the run's cancellation cancels from any thread.
    let scheduler = Locked<Task<Void, Never>?>(nil)

    /// The run's scheduler: its state, and what it needs of the run, copied in. A local value of
    /// the scheduler's task, changed in place by its `mutating` methods, so that Swift checks its
    /// exclusive access when it compiles rather than at each access, as it would for a class's
    /// stored property.
    @MainActor
    struct Scheduler {
        typealias Apply = GraphRun.Apply
        typealias Subject = GraphRun.Subject
        typealias Verdict = GraphRun.Verdict
        typealias Message = GraphRun.Message

        let run: GraphRun
        let plan: [InitializationStepInfo]
        let prerequisites: [[Int]]
        let dependents: [[Int]]
        let works: [Work]
        let timeouts: [Duration?]
        let priorities: [TaskPriority?]
        let isPhased: Bool
        let process: Subject
        let afterReady: [Bool]
        let recorder: RunRecorder
        let deadline: Duration?
        let inbox: Mailbox<Message>
        /// Where each step and the run are.
        var table: Table

        init(_ run: GraphRun, graphStart: Duration?, startsCancelled: Bool) {
            let steps = run.steps
            (self.run, plan, prerequisites, dependents, works) =
                (run, steps.plan, steps.prerequisites, steps.dependents, steps.works)
            (timeouts, priorities, isPhased, process, afterReady) =
                (steps.timeouts, steps.priorities, steps.isPhased, steps.process, steps.afterReady)
            (recorder, deadline, inbox) = (run.recorder, run.deadline, run.inbox)
            let count = plan.count
            var table = Table(
                steps: prerequisites.map { StepRun(state: .waiting($0.count)) },
                unended: count, life: .starting(Starting(remaining: afterReady.lazy.filter { !$0 }.count)))
            table.ready.reserveCapacity(count)
            if isPhased {
                for step in plan { table.phaseRemaining[step.phase.slot] += 1 }
            }
            table.phaseStarts[InitializationPhase.graph.slot] = graphStart
            // Cancelled before it began: the scheduler ends the run at the first step instead of
            // starting it (the cancellation handler ran before there was a task to cancel).
            if startsCancelled { table.life.markCancelled() }
            self.table = table
        }
    }

    /// Where each step and the run are.
    struct Table {
        /// Every step's state, by position: one array, one allocation for the run.
        var steps: [StepRun]
        /// The task of each running attempt that can time out, for cancelling it.
        var attemptTasks: [Int: Task<Void, Never>] = [:]
        /// Steps whose prerequisites have finished, in the order they became ready.
        var ready: [Int] = []
        var readyHead = 0
        var unended: Int
        /// For the three phases: how many steps of each phase have not ended, and when each began.
        var phaseRemaining = [Int](repeating: 0, count: 5)
        var phaseStarts = [Duration?](repeating: nil, count: 5)
        /// Where the run is in its life.
        var life: Life
    }

    /// Where a run is in its life: the one state its entry points (its start, a step's end, a
    /// timer, a cancellation, the deadline, ready, the verdict) switch over.
    enum Life {
        /// Before ready.
        case starting(Starting)
        /// Ready: every step needed for ready ended, `heldBy` last (-1 with none that ran), and
        /// the steps after ready run. `isCancelled`: cancelled since; no step starts.
        case ready(heldBy: Int, isCancelled: Bool)
        /// The verdict is given: what attempts and timers report now is discarded.
        case ended(Verdict)
    }

    /// A run before ready.
    struct Starting {
        /// How many steps needed for ready have not ended.
        var remaining: Int
        /// Steps after ready whose prerequisites finished: they start at ready.
        var deferred: [Int] = []
        /// The timer of the run's deadline, which bounds the time to ready.
        var deadline: Task<Void, Never>?
        /// Cancelled: no step starts.
        var isCancelled = false
    }

    /// Where one step is.
    struct StepRun {
        var state: State
        /// When the step's first attempt started.
        var start = Duration.zero
        var end = Duration.zero
        /// The step's attempts that ended, and what its retry policy makes of a failure.
        var attempts = StepAttempts()
        /// The position of the prerequisite the step waited for last; -1 for none.
        var heldBy = -1
        /// The running attempt's timeout, or the retry delay being waited out.
        var timer: Task<Void, Never>?
        /// Whether the step was skipped (it never ran).
        var isSkipped = false
    }

    init(_ steps: Steps, recorder: RunRecorder, deadline: Duration? = nil) {
        self.deadline = deadline
        self.steps = steps
        self.recorder = recorder
    }

    /// Runs the graph and returns how it ended, or ``Verdict/ready`` once it is ready with steps
    /// after ready still to run; ``outcome()`` then says how it ended.
    ///
    /// Cancelling the calling task cancels the run until it is ready; after, ``cancelLaterSteps()``
    /// does.
    func run() async -> Verdict {
        // Only on-demand steps: ready at once.
        guard !steps.plan.isEmpty else {
            recorder.ready()
            return .finished
        }
        var graphStart: Duration?
        if !steps.isPhased {
            graphStart = recorder.now
            recorder.phaseStarted(.graph)
        }
        let inbox = inbox
        return await withTaskCancellationHandler {
            await withCheckedContinuation { verdict in
                self.verdict = verdict
                let startsCancelled = Task.isCancelled
                let task = Task {
                    await withDiscardingTaskGroup { group in
                        var scheduler = Scheduler(self, graphStart: graphStart, startsCancelled: startsCancelled)
                        await scheduler.schedule(&group)
                    }
                }
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
}

extension GraphRun.Life {
    /// Whether the verdict is still to be given.
    var isOpen: Bool {
        if case .ended = self { false } else { true }
    }

    /// Whether the run was cancelled: no step starts.
    var isCancelled: Bool {
        switch self {
        case .starting(let starting): starting.isCancelled
        case .ready(_, let isCancelled): isCancelled
        case .ended: true
        }
    }

    /// Marks an open run cancelled.
    mutating func markCancelled() {
        switch self {
        case .starting: whileStarting { $0.isCancelled = true }
        case .ready(let heldBy, _): self = .ready(heldBy: heldBy, isCancelled: true)
        case .ended: break
        }
    }

    /// Changes the run before ready with `change`; nothing after. The payload is moved out
    /// first, so that its arrays are changed in place rather than copied.
    mutating func whileStarting(_ change: (inout GraphRun.Starting) -> Void) {
        guard case .starting(var starting) = self else { return }
        self = .ready(heldBy: -1, isCancelled: false)
        change(&starting)
        self = .starting(starting)
    }
}
