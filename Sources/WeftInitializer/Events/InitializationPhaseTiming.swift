/// When a phase ran, relative to the start of its run.
public struct InitializationPhaseTiming: Sendable, Hashable {
    /// The phase.
    public let phase: InitializationPhase
    /// The time from the start of the run to the start of the phase.
    public let startOffset: Duration
    /// How long the phase ran.
    public let duration: Duration

    init(phase: InitializationPhase, startOffset: Duration, duration: Duration) {
        self.phase = phase
        self.startOffset = startOffset
        self.duration = duration
    }
}
