/// When a step of a graph runs: before the run is ready, or after.
///
/// A run is *ready* once every step marked ``beforeReady`` (the default) has ended: `run()`
/// returns then, and the app can show its first screen. Steps marked ``afterReady`` start only
/// then, so they never compete with what the first screen needs; the run finishes them in the
/// background (``InitializationResult/waitForLaterSteps()``).
public enum InitializationStage: Sendable, Hashable, CustomStringConvertible {
    /// Needed for ready: `run()` waits for the step, and its failure fails the run (unless it is
    /// optional). The default.
    case beforeReady
    /// Run once the run is ready, after `run()` has returned. Its failure never fails the run:
    /// like an optional step's, it skips the steps that wait for it, and the final report reads
    /// it failed. A step needed for ready may not wait for one of these.
    case afterReady
    /// Run only when its value is first asked for, through its ``OnDemand`` handle: declared
    /// with ``InitializationStep/onDemand(_:title:type:after:timeout:retry:priority:produce:apply:)``,
    /// never by passing this stage. The run neither starts nor waits for it; it may wait for
    /// steps needed for ready and for other on-demand steps, and no other step may wait for it.
    case onDemand

    /// `before ready` or `after ready`.
    public var description: String {
        switch self {
        case .beforeReady: "before ready"
        case .afterReady: "after ready"
        case .onDemand: "on demand"
        }
    }
}
