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
