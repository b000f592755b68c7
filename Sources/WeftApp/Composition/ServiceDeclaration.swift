import Weft

/// One registration of the composition root as a declaration: its key, its lifetime and the
/// services its factory resolves.
///
/// ``AppServices/declarations(for:)`` lists them beside the real factories, so the dependency
/// graph can be drawn without running a factory (`weft graph` opens no database and starts no
/// server); a test checks that the declaration matches what the real factories resolve.
struct ServiceDeclaration: Sendable {
    /// The registered type.
    let key: ServiceKey
    /// How long a resolved value lives.
    let lifetime: Lifetime
    /// What the factory resolves, in order.
    let dependencies: [ServiceKey]
    private let registerStandIn: @Sendable (Container) -> Void

    /// Declares that `type` is registered with `lifetime` and that its factory resolves
    /// `dependencies`; the stand-in is registered at the declaration's `file` and `line`.
    init<Service: Sendable>(
        _ type: Service.Type, lifetime: Lifetime = .singleton, resolves dependencies: [any Sendable.Type] = [],
        file: String = #fileID, line: UInt = #line
    ) {
        key = ServiceKey(type)
        self.lifetime = lifetime
        self.dependencies = dependencies.map { ServiceKey($0) }
        registerStandIn = { container in
            container.register(type, lifetime: lifetime, file: file, line: line) {
                (resolver: Resolver) async throws -> Service in
                for dependency in dependencies { await Self.touch(dependency, with: resolver) }
                throw StandIn()
            }
        }
    }

    /// Registers a stand-in in `container` that resolves the declared dependencies and then
    /// throws instead of creating anything.
    func registerStandIn(in container: Container) {
        registerStandIn(container)
    }

    /// Resolves `type` for its edge only; the stand-in behind it throws, which is expected.
    private static func touch<Dependency: Sendable>(_ type: Dependency.Type, with resolver: Resolver) async {
        _ = try? await resolver.resolve(type)
    }

    /// What a stand-in factory throws once it resolved its dependencies.
    private struct StandIn: Error {}
}
