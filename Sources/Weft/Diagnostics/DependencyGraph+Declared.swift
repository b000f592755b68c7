extension DependencyGraph {
    /// A service as an app declares it, beside its registration: its key, lifetime, whether its
    /// factory is `async`, and what its factory resolves.
    public struct DeclaredService: Sendable {
        let node: Node
        let resolves: [ServiceKey]

        /// Declares that `type` (and `name`) is registered with `lifetime`, with an `async`
        /// factory or not, resolving `resolves`; by `module` if a module registers it. The
        /// declaration's `file` and `line` stand for the registration's site.
        public init(
            _ type: Any.Type, name: String? = nil, lifetime: Lifetime = .singleton, isAsync: Bool = true,
            resolves: [ServiceKey] = [], module: String? = nil, file: String = #fileID, line: Int = #line
        ) {
            node = Node(
                key: ServiceKey(type, name: name), lifetime: lifetime, site: RegistrationSite(fileID: file, line: line),
                module: module, isAsync: isAsync)
            self.resolves = resolves
        }
    }

    /// The graph of `services` as declared, drawn without running a factory: for `weft graph`
    /// style tools and a ``startupPlan(_:)`` made at launch, where running every factory in
    /// ``Container/validate()`` would cost too much.
    ///
    /// A declaration can drift from the factories it describes; a test holds them together,
    /// since two graphs of the same registrations and dependencies are equal:
    ///
    /// ```swift
    /// #expect(DependencyGraph(declaring: declarations) == (await container.graph()))
    /// ```
    public init(declaring services: [DeclaredService]) {
        self.init(
            nodes: services.map(\.node),
            edges: Array(
                Set(services.flatMap { service in service.resolves.map { Edge(from: service.node.key, to: $0) } })))
    }
}
