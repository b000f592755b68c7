import WeftPrimitives

extension Container {
    /// The application's shared container, replaced atomically by the bootstrap methods.
    ///
    /// Inside ``withIsolatedShared(_:operation:)`` this is the isolated container.
    public static var shared: Container { SharedContainer.active.container }

    /// Whether a bootstrap of ``shared`` has completed.
    static var isBootstrapped: Bool { SharedContainer.active.isBootstrapped }

    /// Replaces ``shared`` with a new container configured by `configure`.
    ///
    /// The new container is built aside and swapped in atomically; concurrent bootstraps and
    /// updates run one after another.
    public static func bootstrap(_ configure: @Sendable (Container) -> Void) async {
        let shared = SharedContainer.active
        await shared.gate.withLock {
            try? await shared.bootstrap { configure($0) }
        }
    }

    /// Replaces ``shared`` with a container configured by an `async`, throwing closure.
    ///
    /// - Returns: `true` on success. On a throw, returns `false` and ``shared`` stays exactly
    ///   as it was; ``ensureBootstrapped()`` reports the error.
    @discardableResult
    public static func bootstrapAsync(_ configure: @Sendable (Container) async throws -> Void) async -> Bool {
        let shared = SharedContainer.active
        return await shared.gate.withLock {
            (try? await shared.bootstrap(configure)) != nil
        }
    }

    /// Bootstraps with synchronous registrations first, then `async` ones, swapping the
    /// result in once both are done.
    public static func bootstrapMixed(
        sync: @Sendable (Container) -> Void,
        async: @Sendable (Container) async -> Void
    ) async {
        let shared = SharedContainer.active
        await shared.gate.withLock {
            try? await shared.bootstrap { container in
                sync(container)
                await async(container)
            }
        }
    }

    /// Bootstraps unless a bootstrap already completed.
    ///
    /// Racing callers are serialized: `configure` runs exactly once. A throwing attempt does
    /// not count: the next caller tries again.
    /// - Returns: `true` if this call bootstrapped.
    @discardableResult
    public static func bootstrapIfNeeded(_ configure: @Sendable (Container) async throws -> Void) async -> Bool {
        let shared = SharedContainer.active
        return await shared.gate.withLock {
            guard !shared.isBootstrapped else { return false }
            return (try? await shared.bootstrap(configure)) != nil
        }
    }

    /// Starts ``bootstrapAsync(_:)`` in a detached high-priority task and returns at once.
    ///
    /// Await the returned task's value to learn whether it succeeded.
    @discardableResult
    public static func bootstrapInTask(
        _ configure: @escaping @Sendable (Container) async throws -> Void
    ) -> Task<Bool, Never> {
        let shared = SharedContainer.active
        return Task.detached(priority: .high) {
            await SharedContainer.$override.withValue(shared) {
                await bootstrapAsync(configure)
            }
        }
    }

    /// Adds registrations to ``shared`` atomically: readers see all of them or none.
    ///
    /// `configure` is handed ``shared`` itself, so factories may capture it. Its registrations
    /// take effect together when it returns; until then resolves, inside `configure` too, see
    /// the container as it was, and values they create are the container's own. Cached values
    /// of registrations that are not replaced are kept.
    public static func update(_ configure: @Sendable (Container) -> Void) async {
        let shared = SharedContainer.active
        await shared.gate.withLock { await shared.update { configure($0) } }
    }

    /// Adds registrations made by an `async` closure to ``shared`` atomically, as
    /// ``update(_:)`` does.
    public static func updateAsync(_ configure: @Sendable (Container) async -> Void) async {
        let shared = SharedContainer.active
        await shared.gate.withLock { await shared.update(configure) }
    }

    /// Throws unless a bootstrap of ``shared`` has completed.
    public static func ensureBootstrapped() throws(NotBootstrappedError) {
        let state = SharedContainer.active.state.withLock { ($0.isBootstrapped, $0.lastFailure) }
        guard state.0 else { throw NotBootstrappedError(lastFailure: state.1) }
    }

    /// Forgets everything: ``shared`` becomes a new empty container, not bootstrapped.
    ///
    /// Waits for a bootstrap in progress to finish first.
    public static func resetForTesting() async {
        let shared = SharedContainer.active
        await shared.gate.withLock { shared.reset() }
    }

    /// Runs `operation` with its own ``shared`` container and bootstrap state, visible to
    /// the operation and the tasks it creates, and to nothing else.
    ///
    /// ```swift
    /// @Test func checkout() async throws {
    ///     try await Container.withIsolatedShared {
    ///         await Container.bootstrap { $0.register(Payments.self) { FakePayments() } }
    ///         // Other tests running in parallel never see FakePayments.
    ///     }
    /// }
    /// ```
    public static func withIsolatedShared<R: Sendable>(
        _ container: Container = Container(),
        operation: () async throws -> R
    ) async rethrows -> R {
        try await SharedContainer.$override.withValue(SharedContainer(container), operation: operation)
    }
}
