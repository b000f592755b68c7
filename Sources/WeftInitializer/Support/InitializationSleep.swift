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
