// Swift Testing ships with the toolchain on Linux and with Xcode; macOS's Command Line Tools
// alone may lack it, and then only ManualClock is built.
#if canImport(Testing)
    public import Testing
    public import Weft

    /// A test trait that runs each test with a shared container of its own.
    ///
    /// Inside a test with this trait, `Container.shared` is a container that belongs to the test,
    /// with its own bootstrap state, for the test and the tasks it creates (detached tasks
    /// excepted): what the test registers, bootstraps, overrides or caches there is invisible to
    /// every other test, tests running in parallel included, and to code outside the test. It wraps
    /// `Container.withIsolatedShared(_:operation:)` around the test.
    ///
    /// ```swift
    /// @Test(.isolatedContainer { container in
    ///     container.register((any Payments).self, lifetime: .singleton) { FakePayments() }
    /// })
    /// func checkoutCharges() async throws {
    ///     let model = CheckoutModel()  // its @Injected properties resolve FakePayments
    ///     try await model.pay()
    /// }
    /// ```
    ///
    /// Get one with `.isolatedContainer`, for an empty container the test bootstraps itself, or
    /// `.isolatedContainer { container in … }`, for a container bootstrapped with the test's doubles
    /// before the test starts. On a suite, the trait applies to each test of the suite, and to each
    /// argument of a parameterized test, on its own. On a suite and on one of its tests, the test's
    /// own trait applies: its container replaces the suite's.
    ///
    /// The shared container is a test context, as every container a test makes is
    /// (`Container.Context.defaults`): a registration marked `.liveOnly()` that the test does not
    /// override refuses to resolve, one with a `.testValue { … }` makes its test value, and a
    /// `register(…, when: .test)` registration is chosen. As inside
    /// ``withTestContext(sourceLocation:_:)``, each refusal is recorded as exactly one issue, at
    /// the line that resolved.
    public struct IsolatedContainerTrait: TestTrait, SuiteTrait, TestScoping {
        private let configure: (@Sendable (Container) async throws -> Void)?

        fileprivate init(configure: (@Sendable (Container) async throws -> Void)?) {
            self.configure = configure
        }

        /// `true`: on a suite, each of its tests gets a container of its own.
        public var isRecursive: Bool { true }

        /// Runs `function`, the test, with a shared container of its own, bootstrapped first with
        /// the trait's configuration if it has one, recording forgotten overrides as
        /// ``withTestContext(sourceLocation:_:)`` does.
        ///
        /// - Throws: What the configuration threw (the test does not run then), or what the test
        ///   threw.
        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            try await ForgottenOverrides(test: test.sourceLocation).run {
                try await Container.withIsolatedShared {
                    if let configure {
                        try await Self.bootstrap(configure)
                    }
                    try await function()
                }
            }
        }

        /// Bootstraps the isolated shared container with `configure`, throwing what it throws.
        private static func bootstrap(_ configure: @escaping @Sendable (Container) async throws -> Void) async throws {
            guard await !Container.bootstrapAsync(configure) else { return }
            do {
                try Container.ensureBootstrapped()
            } catch {
                throw error.lastFailure ?? error
            }
        }
    }

    extension Trait where Self == IsolatedContainerTrait {
        /// Runs the test with an empty shared container of its own, not bootstrapped.
        ///
        /// The test bootstraps it, or registers in it, as an app would at launch;
        /// `Container.bootstrapIfNeeded(_:)` inside the test bootstraps it once.
        ///
        /// ```swift
        /// @Test(.isolatedContainer) func launchRegistersTheLiveClient() async throws {
        ///     await Container.bootstrap { AppModule.register(in: $0) }
        ///     #expect(Container.shared.resolve((any Client).self) is LiveClient)
        /// }
        /// ```
        public static var isolatedContainer: Self {
            IsolatedContainerTrait(configure: nil)
        }

        /// Runs the test with a shared container of its own, bootstrapped with `configure` before
        /// the test starts.
        ///
        /// `configure` registers the test's doubles. The container counts as bootstrapped, so
        /// `Container.ensureBootstrapped()` passes and `Container.bootstrapIfNeeded(_:)` in the
        /// code under test leaves the doubles in place. When `configure` throws, the test does
        /// not run and fails with that error.
        ///
        /// ```swift
        /// @Test(.isolatedContainer { $0.register((any Client).self) { FakeClient() } })
        /// func showsTheFakeFact() async throws { … }
        /// ```
        ///
        /// - Parameter configure: Registers what the test resolves; it is handed the test's shared
        ///   container.
        public static func isolatedContainer(
            _ configure: @escaping @Sendable (Container) async throws -> Void
        ) -> Self {
            IsolatedContainerTrait(configure: configure)
        }
    }
#endif
