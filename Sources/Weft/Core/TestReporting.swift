/// How a test hears of the live-only services its code resolved without overriding them.
///
/// The refusal itself needs nothing from here: a container whose contexts include
/// ``Container/Context/test`` refuses to run a `.liveOnly()` factory and the resolve throws
/// ``ResolutionError/liveOnly(_:path:)``. WeftTesting's scopes (the `.isolatedContainer` trait,
/// `withTestContext`) set this task-local to turn each refusal into one issue of the test, at
/// the line that resolved, even where the code under test swallows the error.
package struct TestReporting: Sendable {
    /// Told of each refusal, as the factory would have run: `key`, whose resolve throws.
    package let refused: @Sendable (ServiceKey) -> Void
    /// Told of each refusal leaving a container's resolve (`require`, `resolve`,
    /// `resolveAsync`), with the `#fileID` and `#line` of that call.
    package let surfaced: @Sendable (ResolutionError, RegistrationSite) -> Void

    package init(
        refused: @escaping @Sendable (ServiceKey) -> Void,
        surfaced: @escaping @Sendable (ResolutionError, RegistrationSite) -> Void
    ) {
        self.refused = refused
        self.surfaced = surfaced
    }

    /// The reporting of the current task, inherited by the tasks it creates (detached tasks
    /// excepted); `nil` outside WeftTesting's scopes.
    @TaskLocal package static var current: TestReporting?
}

extension ResolutionError {
    /// This error, told to the test's reporting first if it is a live-only refusal: called
    /// where an error leaves a container's resolve, with the `file` and `line` of that call.
    /// Never inlined: the call sites keep only the call, on their error path.
    @usableFromInline @inline(never)
    func surfaced(file: String, line: UInt) -> ResolutionError {
        if code == .liveOnly, let reporting = TestReporting.current {
            reporting.surfaced(self, RegistrationSite(fileID: file, line: Int(line)))
        }
        return self
    }
}

extension Container {
    /// Whether ``Context/test`` is one of this container's ``contexts``: by default in a
    /// process running tests (``Context/defaults``), for every root container and the children
    /// made from it.
    ///
    /// In a test context, a registration marked ``Registered/liveOnly()`` refuses to resolve,
    /// one with a `testValue { … }` makes its test value, and a `register(…, when: .test)`
    /// registration is chosen, unless the test overrides the key. While ``validate()`` runs
    /// factories, `.liveOnly()` and `.testValue` work as unmarked: it checks the app's own
    /// wiring.
    ///
    /// ```swift
    /// @Test func containersOfATestAreTestContexts() {
    ///     #expect(Container().isInTestContext)
    /// }
    /// ```
    public var isInTestContext: Bool { contexts.contains(.test) }
}

/// What a `.liveOnly()` registration's stand-in throws in a test context: the engine makes it
/// ``ResolutionError/liveOnly(_:path:)`` with the path, as no factory threw.
struct LiveOnlyRefusal: Error {}

extension Container {
    /// Registers `key` with a factory that throws `error`, registered at `site`: WeftTesting's
    /// `expectValid(module:fakes:)` stands one in for each requirement no fake registers.
    package func registerStandIn(for key: ServiceKey, throwing error: any Error & Sendable, site: RegistrationSite) {
        _ = add(key, .transient, .sync { _, _ in throw error }, site: site)
    }
}
