import Synchronization
import Testing
import Weft
import WeftTesting

/// Talks to the network in the app; the tests must not make one.
private protocol HTTPClient: Sendable {
    var isLive: Bool { get }
}
private struct LiveHTTPClient: HTTPClient {
    var isLive: Bool { true }
}
private struct FakeHTTPClient: HTTPClient {
    var isLive: Bool { false }
}

/// Built on an `HTTPClient`, so that a test double can resolve its own dependencies.
private struct FeedLoader: Sendable {
    let client: any HTTPClient
    let isStub: Bool
}

/// Counts the runs of a live factory.
private final class Runs: Sendable {
    private let count = Mutex(0)
    func note() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A container with a live-only `HTTPClient`, whose live factory notes its runs in `runs`.
private func liveOnlyContainer(_ runs: Runs) -> Container {
    let container = Container()
    container.register((any HTTPClient).self, lifetime: .singleton) {
        runs.note()
        return LiveHTTPClient() as any HTTPClient
    }
    .liveOnly()
    return container
}

/// The comment of `issue`, as recorded.
private func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined(separator: "\n")
}

/// What a resolve of the live-only `HTTPClient` throws in a test context: the error, and its
/// underlying `LiveServiceInTestError`.
private func expectLiveServiceError(
    _ container: Container, sourceLocation: SourceLocation = #_sourceLocation
) -> LiveServiceInTestError? {
    let error = #expect(throws: ResolutionError.self, sourceLocation: sourceLocation) {
        try container.require((any HTTPClient).self)
    }
    #expect(error?.code == .factoryFailed, sourceLocation: sourceLocation)
    return error?.underlyingError as? LiveServiceInTestError
}

@Suite("Strict test contexts: liveOnly() and testValue")
struct StrictTestContextTests {
    @Test(
        ".liveOnly() fails in an .isolatedContainer test, runs no factory and records an issue at the test",
        .isolatedContainer)
    func liveOnlyFailsInTheTrait() throws {
        #expect(Container.isInTestContext)
        let runs = Runs()
        let container = liveOnlyContainer(runs)
        let testLocation = try #require(Test.current?.sourceLocation)
        var thrown: LiveServiceInTestError?
        withKnownIssue {
            thrown = expectLiveServiceError(container)
        } matching: { issue in
            text(of: issue).contains("is live only") && issue.sourceLocation == testLocation
        }
        let error = try #require(thrown)
        #expect(runs.value == 0)
        #expect(error.key == ServiceKey((any HTTPClient).self))
        #expect(error.site?.fileID == #fileID)
        #expect(
            error.description
                == "HTTPClient (registered at \(error.site?.description ?? "?")) is live only (`.liveOnly()`) "
                + "and has no test implementation, but was resolved in a test context: override it in the test: "
                + "`container.override(HTTPClient.self) { FakeHTTPClient() }`, "
                + "or give its registration a `.testValue { … }`.")
    }

    @Test(".liveOnly() records the issue even where the code under test swallows the error")
    func liveOnlyRecordsWhenSwallowed() {
        let container = liveOnlyContainer(Runs())
        withKnownIssue {
            withTestContext {
                #expect(container.resolve((any HTTPClient).self) == nil)  // `resolve` swallows it
            }
        } matching: { issue in
            text(of: issue).hasPrefix("HTTPClient (registered at ")
        }
    }

    @Test("withTestContext, sync and async, makes a test context that records at its call")
    func withTestContextFails() async throws {
        #expect(!Container.isInTestContext)
        let runs = Runs()
        let container = liveOnlyContainer(runs)
        let here = SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        await confirmation("one issue from each context", expectedCount: 2) { recorded in
            withKnownIssue {
                withTestContext(sourceLocation: here) {
                    #expect(Container.isInTestContext)
                    #expect(expectLiveServiceError(container) != nil)
                }
            } matching: { issue in
                recorded()
                return text(of: issue).contains("is live only") && issue.sourceLocation == here
            }
            await withKnownIssue {
                await withTestContext(sourceLocation: here) {
                    // A child task inherits the context.
                    let error = await Task { expectLiveServiceError(container) }.value
                    #expect(error != nil)
                }
            } matching: { issue in
                recorded()
                return text(of: issue).contains("is live only") && issue.sourceLocation == here
            }
        }
        #expect(runs.value == 0)
        #expect(!Container.isInTestContext)
    }

    @Test(".liveOnly() resolves the live value outside test contexts")
    func liveOnlyPassesOutside() throws {
        #expect(!Container.isInTestContext)
        let runs = Runs()
        let container = liveOnlyContainer(runs)
        #expect(try container.require((any HTTPClient).self).isLive)
        #expect(runs.value == 1)
    }

    @Test("an override of a .liveOnly() key is exempt", .isolatedContainer)
    func overrideIsExempt() async throws {
        let runs = Runs()
        let container = liveOnlyContainer(runs)
        let override = container.override((any HTTPClient).self) { FakeHTTPClient() }
        #expect(try !container.require((any HTTPClient).self).isLive)
        #expect(try await !container.resolveAsync((any HTTPClient).self).isLive)
        override.restore()
        #expect(runs.value == 0)
    }

    @Test("validate() checks the live wiring of .liveOnly() and .testValue registrations", .isolatedContainer)
    func validationUsesTheLiveFactories() async {
        let runs = Runs()
        let container = liveOnlyContainer(runs)
        container.register(FeedLoader.self) { r in
            FeedLoader(client: try r.resolve((any HTTPClient).self), isStub: false)
        }
        .testValue { FeedLoader(client: FakeHTTPClient(), isStub: true) }
        let report = await expectValid(container)  // records no issue
        #expect(report.isValid)
        #expect(runs.value == 1)
    }

    @Test(".testValue makes the test value in a test context, for sync and async resolves", .isolatedContainer)
    func testValueInTests() async throws {
        let runs = Runs()
        let container = Container()
        container.register((any HTTPClient).self) {
            runs.note()
            return LiveHTTPClient() as any HTTPClient
        }
        .testValue { FakeHTTPClient() }
        container.register(FeedLoader.self, lifetime: .singleton) { _ in
            runs.note()
            return FeedLoader(client: LiveHTTPClient(), isStub: false)
        }
        .testValue { r in FeedLoader(client: try r.resolve((any HTTPClient).self), isStub: true) }
        #expect(try !container.require((any HTTPClient).self).isLive)
        #expect(try await !container.resolveAsync((any HTTPClient).self).isLive)
        let loader = try container.require(FeedLoader.self)
        #expect(loader.isStub && !loader.client.isLive)
        #expect(runs.value == 0)

        // An override wins over the test value.
        let override = container.override((any HTTPClient).self) { LiveHTTPClient() }
        defer { override.restore() }
        #expect(try container.require((any HTTPClient).self).isLive)
        #expect(runs.value == 0)
    }

    @Test(".testValue leaves the live value outside test contexts")
    func testValueOutside() async throws {
        let container = Container()
        container.register((any HTTPClient).self) { _ async in LiveHTTPClient() as any HTTPClient }
            .testValue { FakeHTTPClient() }
        #expect(try await container.resolveAsync((any HTTPClient).self).isLive)
        #expect(try await withTestContext { try await !container.resolveAsync((any HTTPClient).self).isLive })
    }

    @Test(".testValue with decorators and hooks: those added after apply to the test value")
    func testValueWithDecoratorsAndHooks() throws {
        let hooked = Runs()
        let container = Container()
        container.register(FeedLoader.self) { FeedLoader(client: LiveHTTPClient(), isStub: false) }
            .decorated { FeedLoader(client: $0.client, isStub: $0.isStub) }
            .testValue { FeedLoader(client: LiveHTTPClient(), isStub: true) }
            .decorated { FeedLoader(client: FakeHTTPClient(), isStub: $0.isStub) }
            .onCreated { _, _ in hooked.note() }
        let loader = try withTestContext { try container.require(FeedLoader.self) }
        #expect(loader.isStub && !loader.client.isLive)
        #expect(hooked.value == 1)
    }

    @Test("the last of .liveOnly() and .testValue decides")
    func lastDecides() throws {
        let container = Container()
        container.register((any HTTPClient).self) { LiveHTTPClient() as any HTTPClient }
            .liveOnly()
            .testValue { FakeHTTPClient() }
        #expect(try withTestContext { try !container.require((any HTTPClient).self).isLive })
        container.register((any HTTPClient).self) { LiveHTTPClient() as any HTTPClient }
            .testValue { FakeHTTPClient() }
            .liveOnly()
        withKnownIssue {
            withTestContext { _ = expectLiveServiceError(container) }
        } matching: { issue in
            text(of: issue).contains("is live only")
        }
    }

    @Test("the error of a named or argument-taking .liveOnly() key says how to replace it")
    func errorDescriptions() throws {
        let container = Container()
        container.register(FeedLoader.self, name: "main") { FeedLoader(client: LiveHTTPClient(), isStub: false) }
            .liveOnly()
        container.register(FeedLoader.self) { (_: Resolver, stub: Bool) in
            FeedLoader(client: LiveHTTPClient(), isStub: stub)
        }
        .liveOnly()
        try withKnownIssue {
            try withTestContext {
                let named = #expect(throws: ResolutionError.self) {
                    try container.require(FeedLoader.self, name: "main")
                }
                let namedError = try #require(named?.underlyingError as? LiveServiceInTestError)
                #expect(
                    namedError.description.contains(
                        "`container.override(FeedLoader.self, name: \"main\") { FakeFeedLoader() }`"))
                #expect(named?.description.contains("is live only") == true)
                let withArguments = #expect(throws: ResolutionError.self) {
                    try container.require(FeedLoader.self, argument: true)
                }
                let argumentsError = try #require(withArguments?.underlyingError as? LiveServiceInTestError)
                #expect(argumentsError.description.contains("register it again in the test's container"))
            }
        } matching: { issue in
            text(of: issue).contains("is live only")
        }
    }

    @Test(".liveOnly() and .testValue wrap async, main-actor and argument-taking factories")
    @MainActor func everyKindOfFactory() async throws {
        let container = Container()
        container.register((any HTTPClient).self) { _ async in LiveHTTPClient() as any HTTPClient }.liveOnly()
        container.register(FeedLoader.self, isolation: MainActor.shared) {
            FeedLoader(client: LiveHTTPClient(), isStub: false)
        }
        .testValue { FeedLoader(client: FakeHTTPClient(), isStub: true) }
        container.register(FeedLoader.self) { (_: Resolver, stub: Bool) in
            FeedLoader(client: LiveHTTPClient(), isStub: stub)
        }
        .testValue { FeedLoader(client: FakeHTTPClient(), isStub: true) }

        try await withTestContext { () async throws in
            #expect(try container.require(FeedLoader.self).isStub)
            #expect(try await container.resolveAsync(FeedLoader.self).isStub)
            #expect(try container.require(FeedLoader.self, argument: false).isStub)
        }
        #expect(try !container.require(FeedLoader.self).isStub)
        #expect(try !container.require(FeedLoader.self, argument: false).isStub)

        await withKnownIssue {
            let error = await withTestContext { () async -> ResolutionError? in
                do {
                    _ = try await container.resolveAsync((any HTTPClient).self)
                    return nil
                } catch {
                    return error as? ResolutionError
                }
            }
            #expect(error?.underlyingError is LiveServiceInTestError)
        } matching: { issue in
            text(of: issue).contains("is live only")
        }
        #expect(try await container.resolveAsync((any HTTPClient).self).isLive)
    }
}
