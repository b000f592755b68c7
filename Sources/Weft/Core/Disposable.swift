import WeftPrimitives

/// A service that holds resources to release when its container shuts down: connections,
/// files, servers, timers.
///
/// ```swift
/// final class Database: Disposable {
///     func dispose() async throws { try await pool.close() }
/// }
/// container.register(Database.self, lifetime: .singleton) { try Database.open() }
/// // …
/// try await container.shutdown()   // disposes the database, once
/// ```
public protocol Disposable: Sendable {
    /// Releases what the service holds. Called once, by ``Container/shutdown()``.
    func dispose() async throws
}

/// What went wrong while a container disposed its services: every failure, not only the first.
public struct ShutdownError: Error, Sendable, CustomStringConvertible {
    /// A service whose ``Disposable/dispose()`` threw.
    public struct Failure: Sendable {
        /// The key the service was registered under.
        public let key: ServiceKey
        /// What `dispose()` threw.
        public let error: any Error
    }

    /// Every disposal that threw, in the order they ran.
    public let failures: [Failure]

    public var description: String {
        "Disposing \(failures.count) service(s) failed: "
            + failures.map { "\($0.key): \($0.error)" }.joined(separator: "; ")
    }
}

extension Container {
    /// Disposes every ``Disposable`` value this container created and cached — singletons and,
    /// in a scope, its scoped values — exactly once, in reverse order of creation, then
    /// refuses to resolve anything (``ResolutionError/shutDown(_:)``).
    ///
    /// A failing `dispose()` does not stop the others: every failure is collected and thrown
    /// together. Concurrent calls share one disposal and its outcome. `instance:` registrations
    /// are the caller's to dispose; `owning:` ones (``register(_:name:also:owning:file:line:)``)
    /// are disposed here, in order with what was created; a value whose registration was
    /// replaced is still disposed here. Shutting down a container leaves its scopes and children running: they keep their
    /// scoped values, and no longer hand out its singletons.
    ///
    /// A factory still running when this is called is not waited for: when it returns, its
    /// value is not cached, a ``Disposable`` one is disposed at once, and the resolves waiting
    /// for it fail with ``ResolutionError/shutDown(_:)``.
    /// - Throws: ``ShutdownError`` listing each service whose `dispose()` threw.
    public func shutdown() async throws(ShutdownError) {
        let (disposal, keys) = state.withLock { state -> (Task<[ShutdownError.Failure], Never>, [ServiceKey]) in
            if let running = state.shutdown { return (running, []) }
            let disposables = state.cache.takeDisposables().reversed().compactMap { key, value in
                (value as? any Disposable).map { (key: key, disposable: $0) }
            }
            // Readers of the lock-free snapshot must miss from now on.
            _ = state.forget(Array(state.cache.allInstances().keys), in: snapshot)
            // Nor may a transient be run lock-free from a snapshot.
            state.cache.close(to: snapshot)
            let task = Task {
                var failures: [ShutdownError.Failure] = []
                for (key, disposable) in disposables {
                    do {
                        try await disposable.dispose()
                    } catch {
                        failures.append(ShutdownError.Failure(key: key, error: error))
                    }
                }
                return failures
            }
            state.shutdown = task
            // Only singletons and weak values are this container's; scoped ones below are theirs.
            return (task, state.registrations.values.filter(\.lifetime.resolvesFromOwner).map(\.key))
        }
        // Scopes below may keep this container's singletons: they must not hand them out now.
        if !keys.isEmpty { forgetInDescendants(keys) }
        let failures = await disposal.value
        guard failures.isEmpty else { throw ShutdownError(failures: failures) }
    }
}
