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
        private struct Refusal {
            /// Recorded as an issue already, or thrown out of the test for Swift Testing to
            /// record: nothing more to record.
            var isRecorded = false
        }

        /// Where the test is, for issues no resolve placed, and for its file's path.
        private let test: SourceLocation
        private let refusals = Locked<[ServiceKey: Refusal]>([:])

        init(test: SourceLocation) { self.test = test }

        /// The reporting Weft calls into while the test runs.
        var reporting: TestReporting {
            TestReporting(
                refused: { [self] key in refusals.withLock { $0[key] = $0[key] ?? Refusal() } },
                surfaced: { [self] error, site in record(error, at: location(of: site)) })
        }

        /// Runs `operation`, the test, with this reporting, then records what no resolve placed.
        /// A refusal thrown out of `operation` is thrown again unless it was recorded already
        /// (Swift Testing would record it a second time).
        func run(isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Void) async throws {
            do {
                try await TestReporting.$current.withValue(reporting, operation: operation, isolation: isolation)
            } catch {
                try settle(error)
            }
            finish()
        }

        /// ``run(_:)`` for synchronous code.
        func run(_ operation: () throws -> Void) throws {
            do {
                try TestReporting.$current.withValue(reporting, operation: operation)
            } catch {
                try settle(error)
            }
            finish()
        }

        /// Throws `error`, which left the test, unless it is a refusal recorded already; a
        /// refusal thrown counts as recorded (Swift Testing records it).
        private func settle(_ error: any Error) throws {
            guard let refusal = error as? ResolutionError, refusal.code == .liveOnly else {
                finish()
                throw error
            }
            let wasRecorded = refusals.withLock { refusals in
                defer { refusals[refusal.key] = Refusal(isRecorded: true) }
                return refusals[refusal.key]?.isRecorded == true
            }
            guard wasRecorded else {
                finish()
                throw error
            }
        }

        /// Records, at the test, each refusal no resolve placed and the test did not throw.
        func finish() {
            let unrecorded = refusals.withLock { refusals in
                let keys = refusals.filter { !$0.value.isRecorded }.keys.sorted { $0.description < $1.description }
                for key in keys { refusals[key] = Refusal(isRecorded: true) }
                return keys
            }
            for key in unrecorded {
                let error = ResolutionError.liveOnly(key, path: [])
                Issue.record(Comment(rawValue: error.description), sourceLocation: test)
            }
        }

        /// Records `error` at `location`, unless its key was recorded already.
        private func record(_ error: ResolutionError, at location: SourceLocation) {
            let isNew = refusals.withLock { refusals in
                defer { refusals[error.key] = Refusal(isRecorded: true) }
                return refusals[error.key]?.isRecorded != true
            }
            if isNew { Issue.record(Comment(rawValue: error.description), sourceLocation: location) }
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
