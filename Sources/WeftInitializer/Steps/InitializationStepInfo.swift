/// What a user interface needs to know about a step: its id, title, phase, position and
/// prerequisites.
///
/// ``DependencyInitializer/plan`` lists one for every step, in run order, before the run starts.
public struct InitializationStepInfo: Sendable, Hashable {
    /// The step's id, unique in its initializer: the one it was given, or for a step of the
    /// three phases its phase and 1-based index, as in `pre-sync.2` or `async.1`.
    public let id: String
    /// The step's title, as given to the step.
    public let title: String
    /// The phase the step runs in; ``InitializationPhase/graph`` for a step of a graph.
    public let phase: InitializationPhase
    /// The step's index within its phase's list.
    let index: Int
    /// The step's position in the whole plan (0-based, in the order the steps were given).
    public let position: Int
    /// Whether the step runs again on `runRepeat`.
    let type: InitializationStepType
    /// The ids of the steps that must finish before this one starts. For the three phases:
    /// the previous step of a sync phase, every step of the phase before.
    public let after: [String]
    /// Whether the step runs off the main actor.
    public let isAsync: Bool
    /// Whether a failure of the step leaves the run degraded instead of failing it.
    public let isOptional: Bool
    /// How often the step is tried.
    public let retry: InitializationRetry

    init(
        id: String,
        title: String,
        phase: InitializationPhase,
        index: Int,
        position: Int,
        type: InitializationStepType,
        after: [String] = [],
        isAsync: Bool = false,
        isOptional: Bool = false,
        retry: InitializationRetry = .never
    ) {
        self.id = id
        self.title = title
        self.phase = phase
        self.index = index
        self.position = position
        self.type = type
        self.after = after
        self.isAsync = isAsync
        self.isOptional = isOptional
        self.retry = retry
    }
}
