/// The steps an initializer was given, which a repeat selects from.
enum StepSource<Process: DependencyInitializationProcess>: Sendable {
    /// The three phases' lists.
    case phases(
        preSync: [SyncInitializationStep<Process>], async: [AsyncInitializationStep<Process>],
        postSync: [SyncInitializationStep<Process>])
    /// The whole graph, of which a run may run a part.
    case graph(StepGraph<Process>)

    /// The graph that runs every step.
    var graph: StepGraph<Process> {
        switch self {
        case .phases(let preSync, let async, let postSync): .phases(preSync: preSync, async: async, postSync: postSync)
        case .graph(let graph): graph
        }
    }
}
