import WeftPrimitives

/// The type a contribution to the collection of `Value` is keyed by: each contribution is a
/// transient registration of its own, under a name of its own (`"#3" Contribution<HealthCheck>`),
/// so that staging, provenance, validation and the graph treat it as any registration. Its
/// order is kept beside it (``Contributed``).
enum Contribution<Value> {}

/// A contribution made in a container: its key, and its place among all contributions.
struct Contributed: Sendable {
    let key: ServiceKey
    /// Counted across containers, so that an ancestor's and a child's contributions interleave
    /// in the order they were made.
    let order: Int
}

/// What ``ServiceKey`` reads back from a ``Contribution`` type.
protocol ContributionKeyType {
    static var collection: Any.Type { get }
}

extension Contribution: ContributionKeyType {
    static var collection: Any.Type { Value.self }
}

extension ServiceKey {
    /// For the key of a contribution, the key of its collection (`ServiceKey(HealthCheck.self)`).
    var contributionCollection: ServiceKey? {
        (type as? any ContributionKeyType.Type).map { ServiceKey($0.collection) }
    }
}

/// Numbers contributions in the order they are made, across containers.
private let contributionCounter = Locked(0)

extension Container {
    /// Adds a value to the collection of `type`: ``contributions(_:)`` makes one value per
    /// contribution, in the order they were made (for modules, the order they were configured
    /// in), from this container and its ancestors.
    ///
    /// A module contributes to a collection that another part of the app reads, without either
    /// registering the whole list:
    ///
    /// ```swift
    /// struct FeedModule: Module {
    ///     let name = "Feed"
    ///     func configure(_ container: Container) async throws {
    ///         container.contribute(HealthCheck.self) { resolver in
    ///             FeedHealthCheck(store: try resolver.resolve(FeedStore.self))
    ///         }
    ///     }
    /// }
    /// let checks = try container.contributions(HealthCheck.self)  // one per contribution
    /// ```
    ///
    /// A contribution is transient: its factory runs on each ``contributions(_:)``, so a
    /// contribution that should be shared resolves a singleton and returns it. Contributions
    /// are registrations of their own (one key each), never replaced by a later one: a module
    /// that contributes is recorded as the contribution's provenance, ``validate()`` resolves
    /// each one and counts them in ``ValidationReport/contributions``, and inside
    /// ``install(_:)`` or ``update(_:)`` they take effect with the other registrations.
    ///
    /// - Parameters:
    ///   - type: The collection's element type.
    ///   - file: Where the contribution is written (`#fileID`), named by errors and validation.
    ///   - line: The line of the contribution (`#line`).
    ///   - factory: Makes the value, resolving its dependencies through the resolver.
    public func contribute<T: Sendable>(
        _ type: T.Type = T.self, file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> T
    ) {
        _ = add(
            newContribution(to: type), .transient, .sync { resolver, _ in try factory(resolver) },
            site: RegistrationSite(fileID: file, line: Int(line)))
    }

    /// Adds a value made by an `async` factory to the collection of `type`; read the collection
    /// with ``contributionsAsync(_:)`` or `try await resolver.contributions(_:)`. See
    /// `contribute(_:file:line:factory:)`.
    public func contribute<T: Sendable>(
        _ type: T.Type = T.self, file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver) async throws -> T
    ) {
        _ = add(
            newContribution(to: type), .transient, .async { resolver, _ in try await factory(resolver) },
            site: RegistrationSite(fileID: file, line: Int(line)))
    }

    /// The values contributed to the collection of `type` here and in ancestors, one per
    /// contribution, each made now, in the order the contributions were made; empty when there
    /// are none.
    ///
    /// - Throws: ``ResolutionError`` when a contribution's factory throws, closes a cycle, or
    ///   is `async` (use ``contributionsAsync(_:)``).
    public func contributions<T: Sendable>(_ type: T.Type) throws(ResolutionError) -> [T] {
        var values: [T] = []
        for key in contributionKeys(of: type) { values.append(try resolveValue(key, miss: .fail)) }
        return values
    }

    /// The values contributed to the collection of `type`, running `async` factories as needed:
    /// see ``contributions(_:)``.
    public func contributionsAsync<T: Sendable>(_ type: T.Type) async throws(ResolutionError) -> [T] {
        var values: [T] = []
        for key in contributionKeys(of: type) { values.append(try await resolveValueAsync(key)) }
        return values
    }

    /// A new contribution to the collection of `type`, recorded here in order: its key.
    private func newContribution<T>(to type: T.Type) -> ServiceKey {
        let order = contributionCounter.withLock { counter in
            counter += 1
            return counter
        }
        let key = ServiceKey(Contribution<T>.self, name: "#\(order)")
        let contributed = Contributed(key: key, order: order)
        state.withLock { $0.contributions[ObjectIdentifier(Contribution<T>.self), default: []].append(contributed) }
        return key
    }

    /// The keys of the contributions to `type` visible from here, in the order they were made.
    func contributionKeys<T>(of type: T.Type) -> [ServiceKey] {
        let id = ObjectIdentifier(Contribution<T>.self)
        var found: [Contributed] = []
        var container: Container? = self
        while let current = container {
            current.state.withLock { state in
                found += (state.contributions[id] ?? []).filter { state.registrations[$0.key] != nil }
            }
            container = current.parent
        }
        return found.sorted { $0.order < $1.order }.map(\.key)
    }
}

extension Resolver {
    /// The values contributed to the collection of `type`, each made now, in the order the
    /// contributions were made (see `contribute(_:file:line:factory:)`).
    ///
    /// ```swift
    /// container.register(HealthReport.self) { resolver in
    ///     HealthReport(checks: try resolver.contributions(HealthCheck.self))
    /// }
    /// ```
    @inlinable
    public func contributions<T: Sendable>(_ type: T.Type) throws(ResolutionError) -> [T] {
        try container.contributions(type)
    }

    /// The values contributed to the collection of `type`, running `async` factories as needed.
    @inlinable
    public func contributions<T: Sendable>(_ type: T.Type) async throws(ResolutionError) -> [T] {
        try await container.contributionsAsync(type)
    }
}
