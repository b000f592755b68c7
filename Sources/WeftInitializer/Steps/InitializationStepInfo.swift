/// What a user interface needs to know about a step: its title, phase and position.
///
/// ``DependencyInitializer/plan`` lists one for every step, in run order, before the run starts.
public struct InitializationStepInfo: Sendable, Hashable {
    /// The step's title, as given to the step.
    public let title: String
    /// The phase the step runs in.
    public let phase: InitializationPhase
    /// The step's index within its phase's list.
    let index: Int
    /// The step's position in the whole plan (0-based, pre-sync steps first).
    public let position: Int
    /// Whether the step runs again on `runRepeat`.
    let type: InitializationStepType

    init(
        title: String,
        phase: InitializationPhase,
        index: Int,
        position: Int,
        type: InitializationStepType
    ) {
        self.title = title
        self.phase = phase
        self.index = index
        self.position = position
        self.type = type
    }
}
