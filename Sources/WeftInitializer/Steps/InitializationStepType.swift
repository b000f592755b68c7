/// Whether a step runs once or again on every `runRepeat`.
public enum InitializationStepType: Sendable, Hashable {
    /// Runs only in the first run (for example opening a database or starting a server).
    case simple
    /// Runs in the first run and again in every repeat run (for example steps that depend
    /// on the selected environment).
    case repeatable
}
