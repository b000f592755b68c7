/// Why a run sleeps on its clock: a step's timeout, a step's retry delay, or the run's deadline.
///
/// Set as a task-local value around each sleep, so that WeftTesting's `ManualClock` can tell a
/// test which sleeper is which (`waitForRetryDelay(of:)`): the run's deadline also sleeps on the
/// clock, from the run's start.
package enum InitializationSleep: Sendable, Equatable {
    /// The timeout of `step`'s attempt `attempt` (counted from 1).
    case stepTimeout(step: InitializationStepInfo, attempt: Int)
    /// The delay before `step`'s attempt `attempt` (2 or more).
    case retryDelay(step: InitializationStepInfo, attempt: Int)
    /// The run's deadline.
    case runDeadline

    /// The sleep the current task is in, if it is one of a run's.
    @TaskLocal package static var current: InitializationSleep?
}

extension InitializationClock {
    /// Sleeps until `deadline` (an offset on this clock), as `sleep` says it does; `false` when
    /// the task was cancelled first. The one way a run waits: a timeout, a retry delay, its
    /// deadline.
    func sleep(until deadline: Duration, for sleep: InitializationSleep) async -> Bool {
        await InitializationSleep.$current.withValue(sleep) { (try? await sleepUntil(deadline)) != nil }
    }

    /// A task that calls `fire` at `deadline`, unless it is cancelled first.
    func timer(
        until deadline: Duration, for sleep: InitializationSleep, fire: @escaping @Sendable () -> Void
    ) -> Task<Void, Never> {
        Task.detached {
            guard await self.sleep(until: deadline, for: sleep) else { return }
            fire()
        }
    }
}
