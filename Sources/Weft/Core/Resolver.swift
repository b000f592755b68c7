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
    public let container: Container

    /// A resolver over `container`, e.g. for calling a factory by hand in a test.
    public init(_ container: Container) {
        self.container = container
    }

    /// The service registered for `type`.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type) throws(ResolutionError) -> T {
        try container.resolveSync(ServiceKey(type))
    }

    /// The service registered for `type` under `name`.
    @inlinable
    public func resolve<T: Sendable>(_ name: String, _ type: T.Type) throws(ResolutionError) -> T {
        try container.resolveSync(ServiceKey(type, name: name))
    }

    /// The service registered for `type`, running `async` factories as needed.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type) async throws(ResolutionError) -> T {
        try await container.resolveAsync(ServiceKey(type))
    }

    /// The service registered for `type` under `name`, running `async` factories as needed.
    @inlinable
    public func resolve<T: Sendable>(_ name: String, _ type: T.Type) async throws(ResolutionError) -> T {
        try await container.resolveAsync(ServiceKey(type, name: name))
    }

    /// The service registered for `type`, or `nil` when none is registered.
    ///
    /// Other failures (a failing factory, a cycle) still throw: an optional dependency that
    /// is registered but broken is a bug worth seeing.
    public func optional<T: Sendable>(_ type: T.Type) throws(ResolutionError) -> T? {
        guard container.isRegistered(type) else { return nil }
        return try container.resolveSync(ServiceKey(type))
    }
}
