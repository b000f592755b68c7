/// The three step lists of an initializer, in phase order.
struct InitializationSteps<Process: DependencyInitializationProcess>: Sendable {
    /// Synchronous steps run first, in order, on the main actor.
    var preSync: [SyncInitializationStep<Process>]
    /// Asynchronous steps run concurrently, off the main actor.
    var async: [AsyncInitializationStep<Process>]
    /// Synchronous steps run last, in order, on the main actor.
    var postSync: [SyncInitializationStep<Process>]

    init(
        preSync: [SyncInitializationStep<Process>] = [],
        async: [AsyncInitializationStep<Process>] = [],
        postSync: [SyncInitializationStep<Process>] = []
    ) {
        self.preSync = preSync
        self.async = async
        self.postSync = postSync
    }

    /// Whether all three lists are empty.
    var isEmpty: Bool { preSync.isEmpty && async.isEmpty && postSync.isEmpty }

    /// The steps marked ``InitializationStepType/repeatable``, in the same order.
    var repeatable: InitializationSteps {
        InitializationSteps(
            preSync: preSync.filter { $0.type == .repeatable },
            async: async.filter { $0.type == .repeatable },
            postSync: postSync.filter { $0.type == .repeatable }
        )
    }

    /// One description per step, in run order: pre-sync, async, post-sync.
    var plan: [InitializationStepInfo] {
        var infos: [InitializationStepInfo] = []
        infos.reserveCapacity(preSync.count + async.count + postSync.count)
        for (index, step) in preSync.enumerated() {
            infos.append(
                .init(title: step.title, phase: .preSync, index: index, position: infos.count, type: step.type))
        }
        for (index, step) in async.enumerated() {
            infos.append(.init(title: step.title, phase: .async, index: index, position: infos.count, type: step.type))
        }
        for (index, step) in postSync.enumerated() {
            infos.append(
                .init(title: step.title, phase: .postSync, index: index, position: infos.count, type: step.type))
        }
        return infos
    }
}
