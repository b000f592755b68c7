public import WeftInitializer

extension InitializationStepInfo {
    /// How output labels the step: `sync` or `async` for a step of a graph, else its phase
    /// (`pre-sync`, `async`, `post-sync`).
    public var kindLabel: String {
        phase == .graph ? (isAsync ? "async" : "sync") : phase.description
    }
}
