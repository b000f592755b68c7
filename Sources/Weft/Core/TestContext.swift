/// Whether the current task runs a test, and how that test hears of a `.liveOnly()` service
/// resolved in it.
///
/// WeftTesting turns it on (its `.isolatedContainer` trait and `withTestContext(_:)`); only the
/// factories of registrations marked ``Registered/liveOnly()`` or given a
/// `testValue { … }` read it, when they run.
package struct TestContext: Sendable {
    /// Told of each `.liveOnly()` registration resolved in the context, just before its resolve
    /// throws: WeftTesting records an issue in the test.
    package let liveServiceResolved: (@Sendable (LiveServiceInTestError) -> Void)?

    package init(liveServiceResolved: (@Sendable (LiveServiceInTestError) -> Void)? = nil) {
        self.liveServiceResolved = liveServiceResolved
    }

    /// The test context of the current task, inherited by the tasks it creates (detached tasks
    /// excepted); `nil` outside tests.
    @TaskLocal package static var current: TestContext?

    /// The context a live-only or test-valued factory obeys now: ``current``, except while
    /// ``Container/validate()`` runs factories, which checks the app's own wiring.
    static var effective: TestContext? {
        guard let context = current, !Validating.current else { return nil }
        return context
    }
}

extension Container {
    /// Whether the current task runs in a test context: inside a test with WeftTesting's
    /// `.isolatedContainer` trait, or inside its `withTestContext { … }`, and in the tasks created
    /// there (detached tasks excepted).
    ///
    /// In a test context, a registration marked ``Registered/liveOnly()`` fails to resolve, and
    /// one with a `testValue { … }` makes its test value, unless the test
    /// overrides the key; while ``validate()`` runs factories, both work as unmarked. `false`
    /// everywhere else, in the app above all.
    ///
    /// ```swift
    /// @Test(.isolatedContainer) func runsInATestContext() {
    ///     #expect(Container.isInTestContext)
    /// }
    /// ```
    public static var isInTestContext: Bool { TestContext.current != nil }
}

/// A registration marked ``Registered/liveOnly()`` was resolved in a test context, and the test
/// did not override its key.
///
/// A resolve throws it wrapped in ``ResolutionError/factoryFailed(_:path:underlying:)`` (the
/// error's ``ResolutionError/underlyingError``); WeftTesting also records it as an issue of the
/// test, so the test fails even where the code under test swallows the error:
///
/// ```swift
/// container.register(HTTPClient.self, lifetime: .singleton) { LiveHTTPClient() }.liveOnly()
/// // In a test: override it, or the resolve throws and the test fails.
/// let override = container.override(HTTPClient.self) { FakeHTTPClient() }
/// defer { override.restore() }
/// ```
public struct LiveServiceInTestError: Error, Sendable, CustomStringConvertible {
    /// The live-only service that was resolved.
    public let key: ServiceKey
    /// Where it was registered (the `#fileID` and `#line` of its `register` call), if known.
    public let site: RegistrationSite?

    init(key: ServiceKey, site: RegistrationSite?) {
        self.key = key
        self.site = site
    }

    public var description: String {
        let subject = site.map { "\(key) (registered at \($0))" } ?? "\(key)"
        return "\(subject) is live only (`.liveOnly()`) and has no test implementation, but was resolved "
            + "in a test context: \(fix)"
    }

    /// What the test should write instead.
    private var fix: String {
        guard key.argumentsType == nil else {
            return "register it again in the test's container with a test double, "
                + "or give its registration a `.testValue { … }`."
        }
        let typeName = key.typeName
        let isPlainName = typeName.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " }
        let type = typeName.contains(" ") ? "(\(typeName))" : typeName
        let bare = typeName.hasPrefix("any ") ? String(typeName.dropFirst(4)) : typeName
        let fake = isPlainName && !bare.contains(" ") ? "Fake\(bare)()" : "…"
        let name = key.name.map { ", name: \"\($0)\"" } ?? ""
        return "override it in the test: `container.override(\(type).self\(name)) { \(fake) }`, "
            + "or give its registration a `.testValue { … }`."
    }
}

extension Container {
    /// Registers `key` with a factory that throws `error`, registered at `site`: WeftTesting's
    /// `expectValid(module:fakes:)` stands one in for each requirement no fake registers.
    package func registerStandIn(for key: ServiceKey, throwing error: any Error & Sendable, site: RegistrationSite) {
        _ = add(key, .transient, .sync { _, _ in throw error }, site: site)
    }
}
