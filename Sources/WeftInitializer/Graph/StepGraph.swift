import WeftPrimitives

/// The steps of one run and the edges between them, checked and indexed.
struct StepGraph<Process: DependencyInitializationProcess>: Sendable {
    let nodes: [StepNode<Process>]
    /// One description per step, in the order the steps were given.
    let plan: [InitializationStepInfo]
    /// For each step, the positions of the steps it waits for.
    let prerequisites: [[Int]]
    /// For each step, the positions of the steps that wait for it.
    let dependents: [[Int]]
    /// Whether the steps came as the three phases, which emit phase events.
    let isPhased: Bool
    /// Each step's work, taking the run's process, and its timeout and priority: what a run
    /// needs of the nodes, made once, so that starting a run copies no node.
    let works: [GraphRun.Work]
    let timeouts: [Duration?]
    let priorities: [TaskPriority?]

    /// The on-demand steps, which the run does not start (``OnDemand``), and their descriptions,
    /// numbered after the run's steps and its container phase.
    let onDemand: [StepNode<Process>]
    let onDemandPlan: [InitializationStepInfo]

    /// Whether a run of the graph does nothing: no step runs, and no on-demand step runs again
    /// (a `.simple` one keeps its value across a repeat).
    var isEmpty: Bool { nodes.isEmpty && !onDemand.contains { $0.type == .repeatable } }

    /// The three phases as a graph: each sync step after the one before it, every async step
    /// after the pre-sync steps, the post-sync steps after every async step.
    static func phases(
        preSync: [SyncInitializationStep<Process>],
        async: [AsyncInitializationStep<Process>],
        postSync: [SyncInitializationStep<Process>]
    ) -> StepGraph {
        var nodes: [StepNode<Process>] = []
        func add(_ node: StepNode<Process>, phase: InitializationPhase, index: Int) {
            var node = node
            node.phase = phase
            node.index = index
            nodes.append(node)
        }
        func id(_ phase: InitializationPhase, _ index: Int) -> String { "\(phase).\(index + 1)" }

        var previous: [String] = []
        for (index, step) in preSync.enumerated() {
            add(step.node(id: id(.preSync, index), after: previous), phase: .preSync, index: index)
            previous = [id(.preSync, index)]
        }
        if !async.isEmpty {
            for (index, step) in async.enumerated() {
                add(step.node(id: id(.async, index), after: previous), phase: .async, index: index)
            }
            previous = async.indices.map { id(.async, $0) }
        }
        for (index, step) in postSync.enumerated() {
            add(step.node(id: id(.postSync, index), after: previous), phase: .postSync, index: index)
            previous = [id(.postSync, index)]
        }
        // Distinct ids, each prerequisite an earlier step: nothing to reject.
        return StepGraph(unchecked: nodes, isPhased: true)
    }

    /// The steps of a graph, checked: unique ids, known prerequisites, no circle, usable retry
    /// policies.
    static func graph(_ steps: [InitializationStep<Process>]) throws(InitializationConfigurationError) -> StepGraph {
        guard !steps.isEmpty else { throw InitializationConfigurationError(code: .noSteps) }
        var nodes: [StepNode<Process>] = []
        nodes.reserveCapacity(steps.count)
        for (index, step) in steps.enumerated() {
            var node = step.node
            node.index = index
            nodes.append(node)
        }
        return try StepGraph(nodes: nodes, isPhased: false)
    }

    private init(nodes: [StepNode<Process>], isPhased: Bool) throws(InitializationConfigurationError) {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(nodes.count)
        for (position, node) in nodes.enumerated() {
            guard positions.updateValue(position, forKey: node.id) == nil else {
                throw InitializationConfigurationError(code: .duplicateStepID, steps: [node.id])
            }
            if let problem = node.retry.problem {
                throw InitializationConfigurationError(code: .invalidRetry, steps: [node.id], detail: problem)
            }
        }
        var prerequisites: [[Int]] = []
        var dependents = [[Int]](repeating: [], count: nodes.count)
        prerequisites.reserveCapacity(nodes.count)
        for (position, node) in nodes.enumerated() {
            var own: [Int] = []
            own.reserveCapacity(node.after.count)
            for id in node.after {
                guard let prerequisite = positions[id] else {
                    throw InitializationConfigurationError(
                        code: .missingPrerequisite, steps: [node.id, id],
                        detail: closest(to: id, among: positions.keys.filter { $0 != node.id })
                    )
                }
                guard !own.contains(prerequisite) else { continue }
                own.append(prerequisite)
                dependents[prerequisite].append(position)
            }
            prerequisites.append(own)
        }
        if let cycle = Self.cycle(prerequisites: prerequisites, dependents: dependents) {
            throw InitializationConfigurationError(code: .cycle, steps: cycle.map { nodes[$0].id })
        }
        for (position, node) in nodes.enumerated() {
            let runsAt = prerequisites[position].map { nodes[$0].runsAt }
            switch node.runsAt {
            case .onDemand:
                if let later = runsAt.firstIndex(of: .afterReady) {
                    throw InitializationConfigurationError(
                        code: .onDemandStepAfterLaterStep, steps: [node.id, nodes[prerequisites[position][later]].id])
                }
                continue
            case .beforeReady:
                if let later = runsAt.firstIndex(of: .afterReady) {
                    throw InitializationConfigurationError(
                        code: .readyStepAfterLaterStep, steps: [node.id, nodes[prerequisites[position][later]].id])
                }
            case .afterReady:
                break
            }
            if let onDemand = runsAt.firstIndex(of: .onDemand) {
                throw InitializationConfigurationError(
                    code: .waitsForOnDemandStep, steps: [node.id, nodes[prerequisites[position][onDemand]].id])
            }
        }
        self.init(unchecked: nodes, isPhased: isPhased)
    }

    /// A graph whose checks the caller has made.
    /// A graph of steps known to be well formed: the run's steps, and the on-demand ones apart.
    private init(unchecked all: [StepNode<Process>], isPhased: Bool) {
        let nodes = all.filter { !$0.isOnDemand }
        var positions: [String: Int] = [:]
        for (position, node) in nodes.enumerated() { positions[node.id] = position }
        // Each prerequisite once, in the order first named.
        let prerequisites = nodes.map { node in
            var own: [Int] = []
            for id in node.after { if let position = positions[id], !own.contains(position) { own.append(position) } }
            return own
        }
        var dependents = [[Int]](repeating: [], count: nodes.count)
        for (position, own) in prerequisites.enumerated() {
            for prerequisite in own { dependents[prerequisite].append(position) }
        }
        self.nodes = nodes
        self.prerequisites = prerequisites
        self.dependents = dependents
        self.isPhased = isPhased
        self.plan = Self.plan(nodes, prerequisites)
        (works, timeouts, priorities) = Self.runParts(nodes)
        onDemand = all.filter(\.isOnDemand)
        onDemandPlan = onDemand.enumerated().map { index, node in
            InitializationStepInfo(
                id: node.id, title: node.title, phase: node.phase, index: node.index,
                position: nodes.count + 1 + index, type: node.type,
                after: node.after.enumerated().filter { !node.after[..<$0.offset].contains($0.element) }.map(\.element),
                isAsync: true,
                isOptional: false, retry: node.retry, schedule: .afterReady, isOnDemand: true)
        }
    }

    private static func plan(_ nodes: [StepNode<Process>], _ prerequisites: [[Int]]) -> [InitializationStepInfo] {
        nodes.enumerated().map { position, node in
            InitializationStepInfo(
                id: node.id, title: node.title, phase: node.phase, index: node.index, position: position,
                type: node.type, after: prerequisites[position].map { nodes[$0].id }, isAsync: node.isAsync,
                isOptional: node.isOptional, retry: node.retry, schedule: node.schedule)
        }
    }

    private static func runParts(_ nodes: [StepNode<Process>]) -> ([GraphRun.Work], [Duration?], [TaskPriority?]) {
        var works: [GraphRun.Work] = []
        var timeouts: [Duration?] = []
        var priorities: [TaskPriority?] = []
        works.reserveCapacity(nodes.count)
        timeouts.reserveCapacity(nodes.count)
        priorities.reserveCapacity(nodes.count)
        for node in nodes {
            works.append(node.work.erased)
            timeouts.append(node.timeout)
            priorities.append(node.priority)
        }
        return (works, timeouts, priorities)
    }

    /// A circle of steps waiting for each other, each followed by the one it waits for, starting
    /// with its step given first and repeating it at the end; `nil` when there is none. Kahn's
    /// algorithm: what it cannot order lies on or behind a circle.
    private static func cycle(prerequisites: [[Int]], dependents: [[Int]]) -> [Int]? {
        var waiting = prerequisites.map(\.count)
        var ready = waiting.indices.filter { waiting[$0] == 0 }
        var ordered = 0
        while let next = ready.popLast() {
            ordered += 1
            for dependent in dependents[next] {
                waiting[dependent] -= 1
                if waiting[dependent] == 0 { ready.append(dependent) }
            }
        }
        guard ordered < prerequisites.count, var step = waiting.firstIndex(where: { $0 > 0 }) else { return nil }
        // Every step left waits for another step left: walk back until a step repeats.
        var seen: [Int: Int] = [:]
        var path: [Int] = []
        while seen[step] == nil {
            seen[step] = path.count
            path.append(step)
            guard let prerequisite = prerequisites[step].first(where: { waiting[$0] > 0 }) else { return nil }
            step = prerequisite
        }
        // The circle, turned to start at its step given first: the same steps always read the same.
        let circle = path[(seen[step] ?? 0)...]
        guard let first = circle.indices.min(by: { circle[$0] < circle[$1] }) else { return nil }
        let turned = Array(circle[first...] + circle[..<first])
        return turned + [turned[0]]
    }

    /// What a run of the steps on `process` needs.
    func steps(on process: Process) -> GraphRun.Steps {
        GraphRun.Steps(
            plan: plan, prerequisites: prerequisites, dependents: dependents, works: works, timeouts: timeouts,
            priorities: priorities, isPhased: isPhased, process: process,
            afterReady: plan.map { $0.schedule == .afterReady })
    }

    /// The part of this graph a repeat runs: the steps `seeds` selects and every step that
    /// waits for one of them, directly or not. Prerequisites left out count as finished.
    func repeating(_ seeds: (Int) -> Bool) -> StepGraph {
        var kept = nodes.indices.map(seeds)
        var stack = kept.indices.filter { kept[$0] }
        while let next = stack.popLast() {
            for dependent in dependents[next] where !kept[dependent] {
                kept[dependent] = true
                stack.append(dependent)
            }
        }
        let keptIDs = Set(nodes.indices.filter { kept[$0] }.map { nodes[$0].id })
        let subset = nodes.indices.filter { kept[$0] }.map { position in
            let node = nodes[position]
            return StepNode(
                id: node.id, title: node.title, type: node.type, after: node.after.filter(keptIDs.contains),
                isOptional: node.isOptional, timeout: node.timeout, retry: node.retry, priority: node.priority,
                work: node.work, phase: node.phase, index: node.index, schedule: node.schedule)
        }
        // Every on-demand step stays: the repeat binds each to its run, and decides there
        // whether a finished one keeps its value. Its prerequisites that do not run again
        // finished in the run repeated: they count as finished.
        return StepGraph(unchecked: subset + onDemand, isPhased: isPhased)
    }
}

extension StepNode.Work {
    /// The work in the form a run calls, with the run's process as its subject.
    ///
    /// A run passes only its own process, a `Process`, so the cast holds. It is checked all the
    /// same, and costs a few nanoseconds (no more than an unchecked one, measured on a run of
    /// 10,000 sync steps), where binding each step's work to the process would allocate per
    /// step and run, and a generic value holding the works looks up their type's metadata at
    /// each step (7 % of that run).
    var erased: GraphRun.Work {
        switch self {
        case .sync(let body): .sync { subject in try body(subject as! Process) }
        case .async(.run(let run)):
            .async { subject in
                try await run(subject as! Process)
                return nil
            }
        case .async(.produce(let produce)):
            .async { subject in try await produce(subject as! Process) }
        }
    }
}

extension SyncInitializationStep {
    func node(id: String, after: [String]) -> StepNode<Process> {
        StepNode(
            id: id, title: title, type: type, after: after, isOptional: false, timeout: nil, retry: .never,
            priority: nil, work: .sync(body))
    }
}

extension AsyncInitializationStep {
    func node(id: String, after: [String]) -> StepNode<Process> {
        StepNode(
            id: id, title: title, type: type, after: after, isOptional: false, timeout: timeout, retry: .never,
            priority: priority, work: .async(body))
    }
}
