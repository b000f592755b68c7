/// The start-up a container's dependency graph implies for a ``StartupDeclaration``: which
/// services to make before the app is ready, which after, in which order, and which to leave
/// to their first resolve.
///
/// The first screen's services and everything they depend on are made before ready; the
/// services marked after ready, and what they depend on that is not made already, after. Each
/// of those services that has an `async` factory, or that the declaration marks for when it is
/// made (by key, by module, or by ``StartupDeclaration/otherwise``), is a planned ``Service``: it lists the planned services it waits for
/// (``Service/after``), so a runner can make the plan in parallel where the graph allows and in
/// dependency order where it does not. A service with a synchronous factory that the plan
/// reaches as a dependency before it reaches it as marked is made by the planned service that
/// resolves it.
///
/// ``Container/validate()`` plans the start-up of a container whose ``Container/startup`` is
/// set (``ValidationReport/startupPlan``); ``DependencyGraph/startupPlan(_:)`` plans from a
/// graph already drawn, without running a factory. WeftInitializer's steps can run it
/// (`InitializationStep.planned` in WeftStartup), and so can a task group:
///
/// ```swift
/// let plan = try #require(await container.validate().startupPlan)
/// for service in plan.beforeReady {
///     try await service.make(in: container)  // one by one; a runner overlaps them
/// }
/// ```
public struct StartupPlan: Sendable, Hashable, CustomStringConvertible {
    /// A service the plan makes.
    public struct Service: Sendable, Hashable, CustomStringConvertible {
        /// The service's key.
        public let key: ServiceKey
        /// Whether it is made before the app is ready or after: never ``StartupTiming/onDemand``.
        public let timing: StartupTiming
        /// The planned services that must be made first, in plan order: those its factory
        /// resolves, directly or through services that are not planned.
        public let after: [ServiceKey]
        /// Whether its factory is `async`.
        public let isAsync: Bool
        /// The module that registered it, if a module did.
        public let module: String?

        /// The key's description: an id for a step that makes this service.
        public var id: String { key.description }

        /// Makes this service in `container`, as a resolve does (a cached lifetime keeps it),
        /// and throws away what the resolve returned.
        public func make(in container: Container) async throws(ResolutionError) {
            _ = try await container.resolveAnyAsync(key)
        }

        public var description: String {
            key.description + (after.isEmpty ? "" : " (after \(after.map(\.description).joined(separator: ", ")))")
        }
    }

    /// Every planned service in dependency order: each after the services in its
    /// ``Service/after``, those made before ready first.
    public let services: [Service]
    /// The registrations the plan leaves to their first resolve, sorted.
    public let onDemand: [ServiceKey]
    /// What makes the plan differ from its declaration, or stops part of it: a service the
    /// first screen needs that is marked to wait (``ValidationProblem/Code/neededBeforeReady``),
    /// a cycle (none of whose services, nor those that wait for them, is planned), a declared
    /// key that is not registered. ``Container/validate()`` reports them among its problems,
    /// beside those of the graph itself, such as a synchronous factory that resolves an `async`
    /// one (which a planned run survives: the `async` one is made first).
    public let hazards: [ValidationProblem]

    /// The services made before ready, in order.
    public var beforeReady: [Service] { services.filter { $0.timing == .beforeReady } }
    /// The services made after ready, in order.
    public var afterReady: [Service] { services.filter { $0.timing == .afterReady } }

    /// The chain of services before ready that decides how soon the app is ready, when each
    /// service takes `duration` once what it waits for is made: its first service to its last,
    /// and their total. Ready cannot come sooner, however many run in parallel. Of services that
    /// end at the same moment, the chain ends at the last in plan order.
    public func criticalChain(
        taking duration: (Service) throws -> Duration
    ) rethrows -> (services: [Service], length: Duration) {
        let planned = beforeReady
        var position: [ServiceKey: Int] = [:]
        for (index, service) in planned.enumerated() { position[service.key] = index }
        var ends: [Duration] = []
        var heldBy: [Int?] = []
        for service in planned {
            var start = Duration.zero
            var holder: Int?
            for key in service.after {
                guard let index = position[key], ends[index] >= start else { continue }
                (start, holder) = (ends[index], index)
            }
            ends.append(start + (try duration(service)))
            heldBy.append(holder)
        }
        // Of the services that end last, the last in plan order: one that waits for the others.
        guard let length = ends.max(), var last = ends.lastIndex(of: length) else { return ([], .zero) }
        var chain = [planned[last]]
        while let previous = heldBy[last] {
            chain.append(planned[previous])
            last = previous
        }
        return (chain.reversed(), length)
    }

    /// The plan, one line a part: `before ready: Database, Feed (after Database)`, then after
    /// ready, on demand and hazards.
    public var description: String {
        func line(_ title: String, _ items: [String]) -> String {
            "\(title): " + (items.isEmpty ? "none" : items.joined(separator: ", "))
        }
        var lines = [
            line("before ready", beforeReady.map(\.description)),
            line("after ready", afterReady.map(\.description)),
            line("on demand", onDemand.map(\.description)),
        ]
        if !hazards.isEmpty { lines.append(line("hazards", hazards.map(\.description))) }
        return lines.joined(separator: "\n")
    }
}

extension DependencyGraph {
    /// The start-up this graph implies for `declaration` (see ``StartupPlan``); no factory
    /// runs. Use it with a graph drawn once (``Container/graph()``, or from stand-ins that only
    /// resolve their dependencies) where validating at each launch would cost too much.
    public func startupPlan(_ declaration: StartupDeclaration) -> StartupPlan {
        var planning = StartupPlanning(graph: self, declaration: declaration)
        return planning.plan()
    }
}

/// The work of ``DependencyGraph/startupPlan(_:)``, on the graph's nodes by index (the nodes
/// are sorted by key, so the plan's order is stable).
private struct StartupPlanning {
    let graph: DependencyGraph
    /// Each node's dependencies, by index.
    var needs: [[Int]]
    /// When each node is marked to be made, and whether the declaration marked it.
    var marks: [(timing: StartupTiming, marked: Bool)]
    /// When the plan makes each node: `nil` on demand.
    var made: [StartupTiming?]
    /// The node whose dependency first put each node on its path (-1 for a marked one).
    var reachedFrom: [Int]
    var hazards: [ValidationProblem] = []

    init(graph: DependencyGraph, declaration: StartupDeclaration) {
        self.graph = graph
        let count = graph.nodes.count
        var index: [ServiceKey: Int] = [:]
        index.reserveCapacity(count)
        for (position, node) in graph.nodes.enumerated() { index[node.key] = position }
        needs = Array(repeating: [], count: count)
        for edge in graph.edges {
            if let from = index[edge.from], let to = index[edge.to] { needs[from].append(to) }
        }
        marks = Array(repeating: (declaration.otherwise, false), count: count)
        if !declaration.modules.isEmpty {
            for (position, node) in graph.nodes.enumerated() {
                if let module = node.module, let timing = declaration.modules[module] {
                    marks[position] = (timing, true)
                }
            }
        }
        // The first screen wins over a mark, and a mark by key over one by module.
        for (keys, timing) in [
            (declaration.onDemand, StartupTiming.onDemand), (declaration.afterReady, .afterReady),
            (declaration.firstScreen, .beforeReady),
        ] {
            for key in keys {
                if let position = index[key] {
                    marks[position] = (timing, true)
                } else if !hazards.contains(where: { $0.service == key }) {
                    hazards.append(.startupServiceNotRegistered(key, timing: timing))
                }
            }
        }
        made = Array(repeating: nil, count: count)
        reachedFrom = Array(repeating: -1, count: count)
    }

    mutating func plan() -> StartupPlan {
        for timing in [StartupTiming.beforeReady, .afterReady] { close(over: timing) }
        let nodes = graph.nodes
        // A service is planned when its factory is `async` or the declaration marked it for when
        // it is made (a synchronous one reached as a dependency first is made by what resolves
        // it); one with arguments is made by what resolves it with them.
        let planned = nodes.indices.map { position in
            made[position] != nil && nodes[position].key.argumentsType == nil
                && (nodes[position].isAsync || reachedFrom[position] < 0)
        }
        let order = dependencyOrder()
        var rank = Array(repeating: Int.max, count: nodes.count)
        for (position, node) in order.enumerated() { rank[node] = position }
        let services = order.filter { planned[$0] }.map { position in
            StartupPlan.Service(
                key: nodes[position].key, timing: made[position] ?? .beforeReady,
                after: plannedDependencies(of: position, planned: planned).sorted { rank[$0] < rank[$1] }
                    .map { nodes[$0].key },
                isAsync: nodes[position].isAsync, module: nodes[position].module)
        }
        return StartupPlan(
            services: services, onDemand: nodes.indices.filter { made[$0] == nil }.map { nodes[$0].key },
            hazards: hazards)
    }

    /// Plans, at `timing`, the nodes marked for it and everything they depend on that is not
    /// planned already; a dependency of the first screen that was marked to wait is a hazard.
    private mutating func close(over timing: StartupTiming) {
        var pending = marks.indices.filter { marks[$0].timing == timing && made[$0] == nil }
        for position in pending { made[position] = timing }
        while let position = pending.popLast() {
            for dependency in needs[position] where made[dependency] == nil {
                made[dependency] = timing
                reachedFrom[dependency] = position
                pending.append(dependency)
                let mark = marks[dependency]
                if timing == .beforeReady, mark.marked, mark.timing != .beforeReady {
                    hazards.append(
                        ValidationProblem.neededBeforeReady(
                            service: graph.nodes[position].key, dependency: graph.nodes[dependency].key,
                            marked: mark.timing
                        ).with(path: path(to: position)))
                }
            }
        }
    }

    /// The keys from a marked service down to `position`, by the dependencies that planned them.
    private func path(to position: Int) -> [ServiceKey] {
        var path = [graph.nodes[position].key]
        var node = position
        while reachedFrom[node] >= 0, path.count <= graph.nodes.count {
            node = reachedFrom[node]
            path.append(graph.nodes[node].key)
        }
        return path.reversed()
    }

    /// The planned nodes, each after its dependencies, those made before ready first; none that
    /// waits for a cycle, or is in one (the cycle is a hazard).
    private mutating func dependencyOrder() -> [Int] {
        var order: [Int] = []
        var waiting = Array(repeating: 0, count: needs.count)
        var dependents = Array(repeating: [Int](), count: needs.count)
        for (position, dependencies) in needs.enumerated() where made[position] != nil {
            for dependency in dependencies where made[dependency] != nil {
                waiting[position] += 1
                dependents[dependency].append(position)
            }
        }
        for timing in [StartupTiming.beforeReady, .afterReady] {
            // Wave by wave, each wave in key order.
            var wave = made.indices.filter { made[$0] == timing && waiting[$0] == 0 }
            while !wave.isEmpty {
                order += wave
                var next: [Int] = []
                for position in wave {
                    for dependent in dependents[position] {
                        waiting[dependent] -= 1
                        if waiting[dependent] == 0, made[dependent] == timing { next.append(dependent) }
                    }
                }
                wave = next.sorted()
            }
        }
        // What never stopped waiting waits, through others that did not, for itself.
        let stuck = made.indices.filter { made[$0] != nil && waiting[$0] > 0 }
        if let start = stuck.first { hazards.append(.circularDependency(cycle(from: start, within: Set(stuck)))) }
        return order
    }

    /// A loop among `stuck` nodes (each waits for another of them, so a walk from one comes
    /// back to a node it passed), rotated to start at its smallest key, ending where it starts.
    private func cycle(from start: Int, within stuck: Set<Int>) -> [ServiceKey] {
        var seen: [Int: Int] = [:]
        var walk: [Int] = []
        var node = start
        while seen[node] == nil {
            seen[node] = walk.count
            walk.append(node)
            guard let next = needs[node].first(where: { stuck.contains($0) }) else { break }
            node = next
        }
        let loop = Array(walk[(seen[node] ?? 0)...])
        let first = loop.indices.min { loop[$0] < loop[$1] } ?? 0
        let rotated = loop[first...] + loop[..<first]
        return (rotated + [rotated.first ?? start]).map { graph.nodes[$0].key }
    }

    /// The planned nodes `position` waits for: its dependencies that are planned, and those of
    /// its dependencies that are not, and so on.
    private func plannedDependencies(of position: Int, planned: [Bool]) -> [Int] {
        var found: Set<Int> = []
        var seen: Set<Int> = [position]
        var pending = needs[position]
        while let node = pending.popLast() {
            guard seen.insert(node).inserted, made[node] != nil else { continue }
            if planned[node] { found.insert(node) } else { pending += needs[node] }
        }
        return Array(found)
    }
}
