import WeftPrimitives

/// The `.graph` values of one outermost resolution: each key, resolved from one container,
/// gets one value however often the resolution's factories ask for it.
///
/// A synchronous outermost resolve binds a scope to its thread, an `async` one to its task; the
/// nested resolves of its factories and `onCreated` hooks find it there. Only a resolve from a
/// container that can see a `.graph` registration (``Container/usesGraphScopes``) binds one:
/// a container pays nothing for another's `.graph` registrations.
final class GraphScope: Sendable {
    struct Key: Hashable {
        let key: ServiceKey
        let resolver: ObjectIdentifier
    }

    private let values = Locked<[Key: any Sendable]>([:])

    /// The value made for `key` in this resolution, if any.
    func value(for key: Key) -> (any Sendable)? {
        values.withLock { $0[key] }
    }

    /// Keeps `value` for `key` unless a value is already kept (a concurrent branch of the same
    /// resolution made one first): returns the kept value, and whether it is `value`.
    func keep(_ value: any Sendable, for key: Key) -> (value: any Sendable, isNew: Bool) {
        values.withLock { values in
            if let kept = values[key] { return (kept, false) }
            values[key] = value
            return (value, true)
        }
    }

    // MARK: Binding

    /// The scope of the `async` resolution this task runs.
    @TaskLocal private static var task: GraphScope?

    /// The scope of the synchronous resolution this thread runs, made on first use.
    private static let thread = ThreadBinding<GraphScope>()

    /// The scope of the resolution running on this thread or task, made on first use.
    static var current: GraphScope? {
        if let scope = thread.object(orMake: GraphScope.init) { return scope }
        return task
    }

    /// Runs the synchronous outermost resolution `body` with a scope of its own, unless this
    /// thread or task already has one (a hook's resolve, a resolve inside an `async` factory).
    static func binding<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        guard !thread.isBound, task == nil else { return try body() }
        return try thread.binding(body)
    }

    /// Runs the `async` outermost resolution `body` with a scope of its own, unless one is bound.
    static func binding<R>(_ body: () async throws(ResolutionError) -> R) async throws(ResolutionError) -> R {
        guard task == nil, !thread.isBound else { return try await body() }
        let result = await $task.withValue(GraphScope()) { () async -> Result<R, ResolutionError> in
            do throws(ResolutionError) { return .success(try await body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension Container {
    /// Whether an outermost resolve from this container binds a ``GraphScope``: this container
    /// or an ancestor — every container whose registrations it resolves — holds a `.graph`
    /// registration. One relaxed load of the container's own word, which
    /// ``noteGraphRegistration()`` sets here and in every descendant.
    @inline(__always)
    var usesGraphScopes: Bool { snapshot.seesGraphRegistrations }

    /// Notes that this container holds a `.graph` registration, before it is visible: this
    /// container and every descendant bind scopes from now on. Called without any lock held.
    func noteGraphRegistration() {
        snapshot.noteGraphRegistrations()
        noteGraphRegistrationInDescendants()
    }

    /// ``noteGraphRegistration()`` for the descendants: each child's word is set, then its
    /// children's, taking one container's lock at a time. A child adopted meanwhile reads its
    /// parent's word after its adoption (``init(parent:)``), so none is missed.
    func noteGraphRegistrationInDescendants() {
        for child in state.withLock({ $0.children.alive }) where !child.usesGraphScopes {
            child.noteGraphRegistration()
        }
    }
}
