// The scheduler's state: a local value of its task, what it needs of the run copied in.

extension GraphRun {
    /// The run's scheduler: its state, and what it needs of the run. A local value of
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
        /// The steps it runs: each one's description, prerequisites, dependents, work, timeout
        /// and priority, by position, and the run's process.
        let graph: Steps
        let recorder: RunRecorder
        let deadline: Duration?
        let inbox: Mailbox<Message>
        /// Where each step and the run are.
        var table: Table

        init(_ run: GraphRun, graphStart: Duration?, startsCancelled: Bool) {
            (self.run, graph) = (run, run.steps)
            (recorder, deadline, inbox) = (run.recorder, run.deadline, run.inbox)
            let count = graph.plan.count
            var table = Table(
                steps: graph.prerequisites.map { StepRun(state: .waiting($0.count)) },
                unended: count, life: .starting(Starting(remaining: graph.afterReady.lazy.filter { !$0 }.count)))
            table.ready.reserveCapacity(count)
            if graph.isPhased {
                for step in graph.plan { table.phaseRemaining[step.phase.slot] += 1 }
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
}
