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
    /// A test context is a test with WeftTesting's `.isolatedContainer` trait, or the inside of
    /// its `withTestContext { … }` (see ``Container/isInTestContext``). There, a resolve of the
    /// key runs no factory and throws ``ResolutionError/factoryFailed(_:path:underlying:)`` with a
    /// ``LiveServiceInTestError``, which names the registration and the override to write; in
    /// WeftTesting's contexts it also records an issue in the test, so the test fails even where
    /// the code under test swallows the error. An override replaces the registration, so it is
    /// exempt. Outside test contexts, and while ``Container/validate()`` runs factories (it checks
    /// the app's own wiring), the registration works as if unmarked.
    ///
    /// The last of `liveOnly()` and `testValue(_:)` added decides what a test
    /// context gets. Decorators and hooks apply as usual: to the live value outside tests.
    @discardableResult
    public func liveOnly() -> Registered<Value> {
        let key = registration.key
        let site = registration.site
        return substituted { _, context in
            let error = LiveServiceInTestError(key: key, site: site)
            context.liveServiceResolved?(error)
            throw error
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
    /// A test context is a test with WeftTesting's `.isolatedContainer` trait, or the inside of
    /// its `withTestContext { … }` (see ``Container/isInTestContext``). There, `make` runs where
    /// the live factory would, for synchronous and `async` resolves alike, and its value is
    /// cached by the registration's lifetime; an override of the key wins over it. Outside test
    /// contexts, and while ``Container/validate()`` runs factories, the live factory runs.
    ///
    /// Decorators and hooks added after `testValue` apply to the test value too; decorators
    /// added before it decorate the live value only. The last of ``liveOnly()`` and `testValue`
    /// added decides what a test context gets.
    @discardableResult
    public func testValue(_ make: @escaping @Sendable () throws -> Value) -> Registered<Value> {
        substituted { _, _ in try make() }
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
        substituted { resolver, _ in try make(resolver) }
    }

    /// This registration with its factory (and decorators so far) replaced by `inTest` where a
    /// test context is in force; one task-local read per factory run, none per cached read.
    private func substituted(
        inTest: @escaping @Sendable (Resolver, TestContext) throws -> any Sendable
    ) -> Registered<Value> {
        let made = registration.made.transformed(instead: { resolver in
            guard let context = TestContext.effective else { return nil }
            return try inTest(resolver, context)
        })
        return rebuilt(made: made, onCreated: registration.onCreated)
    }
}
