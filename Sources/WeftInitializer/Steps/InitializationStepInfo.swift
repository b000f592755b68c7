/// What a user interface needs to know about a step: its id, title, phase, position and
/// prerequisites.
///
/// ``DependencyInitializer/plan`` lists one for every step, in run order, before the run starts.
/// Copies share one description, so passing a step around costs one reference count.
public struct InitializationStepInfo: Sendable, Hashable {
    /// The step's id, unique in its initializer: the one it was given, or for a step of the
    /// three phases its phase and 1-based index, as in `pre-sync.2` or `async.1`.
    public var id: String { storage.fields.id }
    /// The step's title, as given to the step.
    public var title: String { storage.fields.title }
    /// The phase the step runs in; ``InitializationPhase/graph`` for a step of a graph.
    public var phase: InitializationPhase { storage.fields.phase }
    /// The step's index within its phase's list.
    var index: Int { storage.fields.index }
    /// The step's position in the whole plan (0-based, in the order the steps were given).
    public var position: Int { storage.fields.position }
    /// Whether the step runs again on `runRepeat`.
    var type: InitializationStepType { storage.fields.type }
    /// The ids of the steps that must finish before this one starts. For the three phases:
    /// the previous step of a sync phase, every step of the phase before.
    public var after: [String] { storage.fields.after }
    /// Whether the step runs off the main actor.
    public var isAsync: Bool { storage.fields.isAsync }
    /// Whether a failure of the step leaves the run degraded instead of failing it.
    public var isOptional: Bool { storage.fields.isOptional }
    /// How often the step is tried.
    public var retry: InitializationRetry { storage.fields.retry }
    /// Whether the run needs the step to be ready, or runs it after; ``InitializationSchedule/afterReady``
    /// for a step run on demand (``isOnDemand``).
    public var schedule: InitializationSchedule { storage.fields.schedule }
    /// Whether the step runs only when its value is first asked for, through its ``OnDemand``
    /// handle: the run neither starts nor waits for it.
    public var isOnDemand: Bool { storage.fields.isOnDemand }

    private struct Fields: Sendable, Hashable {
        let id: String
        let title: String
        let phase: InitializationPhase
        let index: Int
        let position: Int
        let type: InitializationStepType
        let after: [String]
        let isAsync: Bool
        let isOptional: Bool
        let retry: InitializationRetry
        let schedule: InitializationSchedule
        let isOnDemand: Bool
    }

    /// The description, shared by every copy: a run copies a step's description into each of
    /// its events, callbacks and timings.
    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    private let storage: Storage

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
        retry: InitializationRetry = .never,
        schedule: InitializationSchedule = .beforeReady,
        isOnDemand: Bool = false
    ) {
        storage = Storage(
            Fields(
                id: id, title: title, phase: phase, index: index, position: position, type: type, after: after,
                isAsync: isAsync, isOptional: isOptional, retry: retry, schedule: schedule, isOnDemand: isOnDemand))
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }
}
