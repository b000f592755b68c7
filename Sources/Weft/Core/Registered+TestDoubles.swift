extension Registered {
    /// Marks the registration as the live implementation only: in a test context, resolving it
    /// fails instead of running its factory, unless the test overrides the key (swift-dependencies'
    /// `unimplemented`).
    ///
    /// ```swift
    /// container.register(HTTPClient.self, lifetime: .singleton) { LiveHTTPClient() }
    ///     .liveOnly()
    ///
    /// // In a test, the resolve throws and the test fails, unless the test overrides it:
    /// let override = container.override(HTTPClient.self) { FakeHTTPClient() }
    /// defer { override.restore() }
    /// ```
    ///
    /// A test context is a container whose ``Container/contexts`` include
    /// ``Container/Context/test``: every container a test makes, by default
    /// (``Container/Context/defaults``). There, a resolve of the key runs no factory and throws
    /// ``ResolutionError/liveOnly(_:path:)``, which names the registration and the override to
    /// write; in WeftTesting's scopes it is also recorded as one issue of the test, at the line
    /// that resolved, so the test fails even where the code under test swallows the error. An
    /// override replaces the registration, so it is exempt. Elsewhere, and while
    /// ``Container/validate()`` runs factories (it checks the app's own wiring), the registration
    /// works as if unmarked.
    ///
    /// The contexts of the container that holds the registration decide, as they choose among
    /// `register(…, when:)` registrations. The last of `liveOnly()` and `testValue(_:)` added
    /// decides what a test context gets. Decorators and hooks apply as usual: to the live value
    /// outside tests.
    @discardableResult
    public func liveOnly() -> Registered<Value> {
        let key = registration.key
        return substituted { _ in
            TestReporting.current?.refused(key)
            throw LiveOnlyRefusal()
        }
    }

    /// Gives the registration a test double, made in a test context instead of the live value
    /// unless the test overrides the key (swift-dependencies' `testValue`).
    ///
    /// ```swift
    /// container.register(Clock.self, lifetime: .singleton) { SystemClock() }
    ///     .testValue { FixedClock(now: .distantPast) }
    /// ```
    ///
    /// A test context is a container whose ``Container/contexts`` include
    /// ``Container/Context/test`` (see ``Container/isInTestContext``): every container a test
    /// makes, by default. There, `make` runs where the live factory would, for synchronous and
    /// `async` resolves alike, and its value is cached by the registration's lifetime; an
    /// override of the key wins over it. Elsewhere, and while ``Container/validate()`` runs
    /// factories, the live factory runs. Changing a container's contexts forgets the values such
    /// registrations cached there.
    ///
    /// Decorators and hooks added after `testValue` apply to the test value too; decorators
    /// added before it decorate the live value only. The last of ``liveOnly()`` and `testValue`
    /// added decides what a test context gets.
    @discardableResult
    public func testValue(_ make: @escaping @Sendable () throws -> Value) -> Registered<Value> {
        substituted { _ in try make() }
    }

    /// Gives the registration a test double that resolves its own dependencies through
    /// `resolver`, made in a test context instead of the live value unless the test overrides
    /// the key.
    ///
    /// ```swift
    /// container.register(FeedLoader.self) { r in LiveFeedLoader(client: try r.resolve(HTTPClient.self)) }
    ///     .testValue { r in StubFeedLoader(cache: try r.resolve(FeedCache.self)) }
    /// ```
    ///
    /// It works as `testValue(_:)` does.
    @discardableResult
    public func testValue(_ make: @escaping @Sendable (Resolver) throws -> Value) -> Registered<Value> {
        substituted { resolver in try make(resolver) }
    }

    /// This registration with its factory (and decorators so far) replaced by `inTest` where the
    /// container holding it is a test context; one read of its contexts per factory run, none
    /// per cached read.
    private func substituted(
        inTest: @escaping @Sendable (Resolver) throws -> any Sendable
    ) -> Registered<Value> {
        let holder = ContextsHolder(container)
        let made = registration.made.transformed(
            instead: { resolver in
                guard holder.isInTestContext, !Validating.current else { return nil }
                return try inTest(resolver)
            },
            adding: .readsContexts)
        return rebuilt(made: made, onCreated: registration.onCreated)
    }
}

/// The container whose contexts choose between a registration's live value and its test
/// double, held weakly: the container holds the registration, whose factory holds this.
final class ContextsHolder: Sendable {
    private weak let container: Container?

    init(_ container: Container) { self.container = container }

    /// Whether the container is a test context (a released one is none).
    var isInTestContext: Bool { container?.isInTestContext ?? false }
}
