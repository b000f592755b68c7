/// What a factory receives to resolve its own dependencies.
///
/// ```swift
/// container.register(Dashboard.self, lifetime: .singleton) { resolver in
///     Dashboard(api: try await resolver.resolve(APIClient.self))
/// }
/// ```
///
/// Resolving through the resolver extends the current resolution path, so cycles are
/// reported with every step. A singleton's resolver resolves from the container that
/// registered it; a scoped or transient service's resolver from the scope that asked.
public struct Resolver: Sendable {
    /// The container this resolver resolves from.
    @usableFromInline let container: Container

    init(_ container: Container) {
        self.container = container
    }

    /// The service registered for `type` (and `name`).
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type, name: String? = nil) throws(ResolutionError) -> T {
        try container.resolveSync(type, name: name)
    }

    /// The service registered for `type` (and `name`), running `async` factories as needed.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type, name: String? = nil) async throws(ResolutionError) -> T {
        try await container.resolveValueAsync(ServiceKey(type, name: name))
    }
}
