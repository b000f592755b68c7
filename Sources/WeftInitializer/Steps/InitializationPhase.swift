/// Which part of a run a step belongs to: one of the three lists of the phased form (pre-sync,
/// async, post-sync, in the order they run), a graph, or the container built at the end. (When
/// a step of a graph runs, before ready or after, is its ``InitializationSchedule``.)
///
/// Later releases may add phases: a `switch` needs a `default`.
public enum InitializationPhase: Sendable, Hashable, CustomStringConvertible {
    /// Synchronous steps that run first, one after another, on the main actor.
    case preSync
    /// Asynchronous steps that all run concurrently, off the main actor.
    case async
    /// Synchronous steps that run, one after another on the main actor, after every
    /// asynchronous step finished.
    case postSync
    /// The steps of a graph (``DependencyInitializer/init(createProcess:steps:callbacks:tracer:clock:deadline:)``):
    /// each starts as soon as its prerequisites have finished.
    case graph
    /// Assembling the container from the process (``DependencyInitializationProcess/toContainer``).
    case container

    /// A short lowercase name: `pre-sync`, `async`, `post-sync`, `graph` or `container`.
    public var description: String {
        switch self {
        case .preSync: "pre-sync"
        case .async: "async"
        case .postSync: "post-sync"
        case .graph: "graph"
        case .container: "container"
        }
    }
}
