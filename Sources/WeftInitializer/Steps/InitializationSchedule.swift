/// When a step of a graph runs, measured from the moment the run is ready: before it, or
/// after. (Which list a step was given in is its ``InitializationPhase``.)
///
/// A run is *ready* once every step marked ``beforeReady`` (the default) has ended: `run()`
/// returns then, and the app can show its first screen. Steps marked ``afterReady`` start only
/// then, so they never compete with what the first screen needs; the run finishes them in the
/// background (``InitializationResult/waitForLaterSteps()``). A step run on demand
/// (``InitializationStep/onDemand(_:title:type:after:timeout:retry:priority:produce:apply:)``)
/// is neither: it reads ``afterReady`` and ``InitializationStepInfo/isOnDemand``.
public enum InitializationSchedule: Sendable, Hashable, CustomStringConvertible {
    /// Needed for ready: `run()` waits for the step, and its failure fails the run (unless it is
    /// optional). The default.
    case beforeReady
    /// Run once the run is ready, after `run()` has returned. Its failure never fails the run:
    /// like an optional step's, it skips the steps that wait for it, and the final report reads
    /// it failed. A step needed for ready may not wait for one of these.
    case afterReady

    /// `before ready` or `after ready`.
    public var description: String {
        switch self {
        case .beforeReady: "before ready"
        case .afterReady: "after ready"
        }
    }
}
