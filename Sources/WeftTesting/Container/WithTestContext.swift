// Swift Testing ships with the toolchain on Linux and with Xcode; macOS's Command Line Tools
// alone may lack it, and then only ManualClock is built.
#if canImport(Testing)
    public import Testing
    import Weft
    import WeftPrimitives

    /// The forgotten overrides of one test: each live-only service refused in it becomes one
    /// issue, at the line of the container's resolve the refusal left (the `require` in the test,
    /// say), or at the test when no such resolve saw it (a property wrapper's, a swallowed one).
    final class ForgottenOverrides: Sendable {
        /// Where the test is, for issues no resolve placed, and for its file's path.
        private let test: SourceLocation
        /// Each key refused in the test: whether it is recorded already (as an issue, or thrown
        /// out of the test for Swift Testing to record).
        private let refusals = Locked<[ServiceKey: Bool]>([:])

        init(test: SourceLocation) { self.test = test }

        /// The reporting Weft calls into while the test runs.
        var reporting: TestReporting {
            TestReporting(
                refused: { [self] key in refusals.withLock { $0[key] = $0[key] ?? false } },
                surfaced: { [self] error, site in
                    if !markRecorded(error.key) { record(error, at: location(of: site)) }
                })
        }

        /// Runs `operation`, the test, with this reporting, then records what no resolve placed.
        /// A refusal thrown out of `operation` is thrown again unless it was recorded already
        /// (Swift Testing would record it a second time).
        func run(isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Void) async throws {
            defer { finish() }
            do {
                try await TestReporting.$current.withValue(reporting, operation: operation, isolation: isolation)
            } catch let error where isRecordedRefusal(error) {}
        }

        /// ``run(isolation:_:)`` for synchronous code.
        func run(_ operation: () throws -> Void) throws {
            defer { finish() }
            do {
                try TestReporting.$current.withValue(reporting, operation: operation)
            } catch let error where isRecordedRefusal(error) {}
        }

        /// Whether `error`, which left the test, is a refusal recorded already. A refusal is
        /// marked recorded either way: thrown on, Swift Testing records it.
        private func isRecordedRefusal(_ error: any Error) -> Bool {
            guard let refusal = error as? ResolutionError, refusal.code == .liveOnly else { return false }
            return markRecorded(refusal.key)
        }

        /// Marks `key` recorded; whether it was already.
        private func markRecorded(_ key: ServiceKey) -> Bool {
            refusals.withLock { refusals in
                defer { refusals[key] = true }
                return refusals[key] == true
            }
        }

        /// Records, at the test, each refusal no resolve placed and the test did not throw.
        private func finish() {
            let unrecorded = refusals.withLock { refusals in
                let keys = refusals.filter { !$0.value }.keys.sorted { $0.description < $1.description }
                for key in keys { refusals[key] = true }
                return keys
            }
            for key in unrecorded { record(.liveOnly(key, path: []), at: test) }
        }

        /// Records `error` as an issue at `location`.
        private func record(_ error: ResolutionError, at location: SourceLocation) {
            Issue.record(Comment(rawValue: error.description), sourceLocation: location)
        }

        /// `site` as Swift Testing's location: with the test file's path when it is the test's
        /// file, as it is for a `require` written in the test.
        private func location(of site: RegistrationSite) -> SourceLocation {
            let filePath = site.fileID == test.fileID ? test.filePath : site.fileID
            return SourceLocation(fileID: site.fileID, filePath: filePath, line: max(site.line, 1), column: 1)
        }
    }

    /// Runs `operation` reporting each live-only service it resolves without an override as
    /// one issue of the test, for a test without the `.isolatedContainer` trait.
    ///
    /// Every container a test makes is a test context already (`Container.Context.defaults`):
    /// a `.liveOnly()` registration the test does not override refuses to resolve, and the
    /// resolve throws a `ResolutionError` with the code `liveOnly`. Inside
    /// `withTestContext`, each such service is also recorded as exactly one issue, at the line
    /// whose `require`, `resolve` or `resolveAsync` it failed, so the test fails even where the
    /// code under test swallows the error; the error thrown out of `operation` is then not
    /// recorded again. The tasks `operation` creates inherit the reporting; detached tasks do not.
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
    ///   - sourceLocation: Where a refusal that no resolve placed is recorded: by default, the call.
    ///   - operation: The code under test.
    /// - Throws: What `operation` throws, but a refusal recorded already.
    public func withTestContext(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: () throws -> Void
    ) throws {
        try ForgottenOverrides(test: sourceLocation).run(operation)
    }

    /// Runs the `async` `operation` reporting each live-only service it resolves without an
    /// override as one issue; see ``withTestContext(sourceLocation:_:)``.
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
    ///   - sourceLocation: Where a refusal that no resolve placed is recorded: by default, the call.
    ///   - operation: The code under test.
    /// - Throws: What `operation` throws, but a refusal recorded already.
    public func withTestContext(
        isolation: isolated (any Actor)? = #isolation,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: () async throws -> Void
    ) async throws {
        try await ForgottenOverrides(test: sourceLocation).run(isolation: isolation, operation)
    }
#endif
