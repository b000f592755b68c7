// Swift Testing ships with the toolchain on Linux and with Xcode; macOS's Command Line Tools
// alone may lack it, and then only ManualClock is built.
#if canImport(Testing)
    public import Testing
    import Weft

    extension TestContext {
        /// A test context that records an issue at `sourceLocation` for each `.liveOnly()`
        /// registration resolved in it, with the error's description.
        static func recordingIssues(at sourceLocation: SourceLocation) -> TestContext {
            TestContext { error in
                Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
            }
        }
    }

    /// Runs `operation` in a test context, for a test without the `.isolatedContainer` trait.
    ///
    /// In a test context, a registration marked `.liveOnly()` that the test does not override
    /// fails to resolve: its factory does not run, the resolve throws a `ResolutionError` whose
    /// underlying error is a `LiveServiceInTestError`, and an issue with the same message is
    /// recorded at `sourceLocation`, so the test fails even where the code under test swallows
    /// the error. A registration with a `.testValue { … }` makes its test value. The tasks
    /// `operation` creates inherit the context; detached tasks do not.
    ///
    /// ```swift
    /// @Test func loadsTheFeed() throws {
    ///     let container = AppContainer.make()  // registers HTTPClient `.liveOnly()`
    ///     let override = container.override(HTTPClient.self) { FakeHTTPClient() }
    ///     defer { override.restore() }
    ///     try withTestContext {
    ///         let feed = try container.require(FeedLoader.self)  // built on FakeHTTPClient
    ///         #expect(feed.items.isEmpty)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sourceLocation: Where the issues are recorded: by default, the call.
    ///   - operation: The code under test.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withTestContext<Result>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: () throws -> Result
    ) rethrows -> Result {
        try TestContext.$current.withValue(.recordingIssues(at: sourceLocation), operation: operation)
    }

    /// Runs the `async` `operation` in a test context, for a test without the
    /// `.isolatedContainer` trait; see ``withTestContext(sourceLocation:_:)``.
    ///
    /// ```swift
    /// @Test func checkoutChargesTheFake() async throws {
    ///     let override = container.override((any Payments).self) { FakePayments() }
    ///     defer { override.restore() }
    ///     try await withTestContext {
    ///         try await Checkout(container: container).pay(cents: 500)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The actor `operation` runs on: by default, the caller's.
    ///   - sourceLocation: Where the issues are recorded: by default, the call.
    ///   - operation: The code under test.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func withTestContext<Result>(
        isolation: isolated (any Actor)? = #isolation,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await TestContext.$current.withValue(
            .recordingIssues(at: sourceLocation), operation: operation, isolation: isolation)
    }
#endif
