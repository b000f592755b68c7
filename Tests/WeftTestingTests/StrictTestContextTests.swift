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

/// A line a test notes from inside a closure that may run concurrently.
private final class Line: Sendable {
    private let line = Mutex(0)
    func note(_ value: Int) { line.withLock { $0 = value } }
    var value: Int { line.withLock { $0 } }
}

/// The issues `body` records, each with its comment and line, known so that the test passes,
/// and an error it throws (line -1), which a test would record.
private func recordedIssues(
    _ body: () async throws -> Void
) async -> [(text: String, line: Int)] {
    let issues = Mutex<[(text: String, line: Int)]>([])
    do {
        try await withKnownIssue(isIntermittent: true) { () async throws -> Void in
            try await body()
        } matching: { issue in
            issues.withLock { $0.append((text(of: issue), issue.sourceLocation?.line ?? 0)) }
            return true
        }
    } catch {
        // Thrown out of the test, Swift Testing would record it too.
        issues.withLock { $0.append(("thrown: \(error)", -1)) }
    }
    return issues.withLock { $0 }
}

/// What a resolve of the live-only `HTTPClient` throws in a test context.
private func expectRefusal(
    _ container: Container, sourceLocation: SourceLocation = #_sourceLocation
) -> ResolutionError? {
    let error = #expect(throws: ResolutionError.self, sourceLocation: sourceLocation) {
        try container.require((any HTTPClient).self)
    }
    #expect(error?.code == .liveOnly, sourceLocation: sourceLocation)
    return error
}

@Suite("One context: every test is a test context; liveOnly() and testValue")
struct StrictTestContextTests {
    @Test("a plain @Test is a test context: .liveOnly() refuses, runs no factory and names the override")
    func plainTestRefuses() throws {
        let runs = Runs()
        let container = liveOnlyContainer(runs)
        #expect(container.isInTestContext)
        #expect(Container.Context.defaults == [.test])
        let error = try #require(expectRefusal(container))
        #expect(runs.value == 0)
        #expect(error.key == ServiceKey((any HTTPClient).self))
        let site = try #require(error.sites[error.key])
        #expect(site.fileID == #fileID)
        #expect(
            error.description
                == "HTTPClient (registered at \(site)) is live only (`.liveOnly()`) and was resolved in a test "
                + "context, where nothing overrides it. Override it in the test: "
                + "`container.override(HTTPClient.self) { FakeHTTPClient() }`; or give its registration a "
                + "`.testValue { … }`, or run the live wiring on purpose with `container.contexts.remove(.test)`.")
    }

    @Test("a refusal deep in a graph names the path, and no factory claims to have thrown")
    func refusalNamesThePath() throws {
        let container = liveOnlyContainer(Runs())
        container.register(FeedLoader.self) { r in
            FeedLoader(client: try r.resolve((any HTTPClient).self), isStub: false)
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(FeedLoader.self) }
        #expect(error?.code == .liveOnly)
        #expect(error?.path == [ServiceKey(FeedLoader.self)])
        #expect(error?.description.contains("needed by FeedLoader") == true)
        #expect(error?.description.contains("threw") == false)
    }

    @Test("a forgotten override records exactly one issue, at the line that resolved")
    func oneIssueAtTheResolvingLine() async throws {
        let container = liveOnlyContainer(Runs())
        var resolvingLine = 0
        let issues = await recordedIssues {
            try withTestContext {
                resolvingLine = #line + 1
                _ = try container.require((any HTTPClient).self)
            }
        }
        #expect(issues.count == 1)
        #expect(issues.first?.line == resolvingLine)
        #expect(issues.first?.text.contains("is live only") == true)
    }

    @Test("the trait records one issue at the resolving line, whether the test throws the refusal or not")
    func traitRecordsOnce() async throws {
        let test = try #require(Test.current)
        let resolvingLine = Line()
        let thrown = await recordedIssues {
            try await IsolatedContainerTrait.isolatedContainer.provideScope(for: test, testCase: nil) {
                let container = liveOnlyContainer(Runs())
                resolvingLine.note(#line + 1)
                _ = try await container.resolveAsync((any HTTPClient).self)
            }
        }
        #expect(thrown.map(\.line) == [resolvingLine.value])
        let swallowed = await recordedIssues {
            try await IsolatedContainerTrait.isolatedContainer.provideScope(for: test, testCase: nil) {
                let container = liveOnlyContainer(Runs())
                resolvingLine.note(#line + 1)
                #expect(container.resolve((any HTTPClient).self) == nil)  // `resolve` swallows it
                _ = container.resolve((any HTTPClient).self)  // the same key again: no second issue
            }
        }
        #expect(swallowed.map(\.line) == [resolvingLine.value])
    }

    @Test("a refusal no resolve placed (a property wrapper's, swallowed) is recorded once, at the test")
    func unplacedRefusalAtTheTest() async throws {
        let here = SourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        let issues = await recordedIssues {
            try withTestContext(sourceLocation: here) {
                let container = liveOnlyContainer(Runs())
                let injected = Injected<any HTTPClient>(container: container)
                #expect(injected.wrappedValue == nil)
                #expect(injected.wrappedValue == nil)
            }
        }
        #expect(issues.map(\.line) == [here.line])
    }

    @Test("inside .isolatedContainer, a register(…, when: .test) registration is the one resolved", .isolatedContainer)
    func whenTestIsChosen() throws {
        let container = Container.shared
        #expect(container.isInTestContext)
        container.register((any HTTPClient).self) { LiveHTTPClient() as any HTTPClient }
        container.register((any HTTPClient).self, when: .test) { FakeHTTPClient() as any HTTPClient }
        #expect(try !container.require((any HTTPClient).self).isLive)
        let child = container.createScope()
        #expect(child.isInTestContext)
        #expect(try !child.require((any HTTPClient).self).isLive)
    }

    @Test("one context switches them all: contexts without .test resolve the live value and run live-only factories")
    func contextsSwitchEverything() throws {
        let runs = Runs()
        let container = liveOnlyContainer(runs)
        container.register(FeedLoader.self, lifetime: .singleton) {
            FeedLoader(client: LiveHTTPClient(), isStub: false)
        }
        .testValue { FeedLoader(client: FakeHTTPClient(), isStub: true) }
        container.register(Int.self) { 1 }
        container.register(Int.self, when: .test) { 2 }
        #expect(try container.require(FeedLoader.self).isStub)
        #expect(try container.require(Int.self) == 2)

        container.contexts.remove(.test)  // the live wiring, on purpose
        #expect(!container.isInTestContext)
        #expect(try !container.require(FeedLoader.self).isStub)  // the cached test value is forgotten
        #expect(try container.require((any HTTPClient).self).isLive)
        #expect(try container.require(Int.self) == 1)
        #expect(runs.value == 1)

        container.contexts.insert(.test)
        #expect(try container.require(FeedLoader.self).isStub)
        #expect(expectRefusal(container) != nil)
    }

    @Test("the container holding a test double decides, as for when: registrations")
    func holderDecides() throws {
        let parent = Container()
        parent.register(FeedLoader.self) { FeedLoader(client: LiveHTTPClient(), isStub: false) }
            .testValue { FeedLoader(client: FakeHTTPClient(), isStub: true) }
        let child = parent.createScope()
        child.contexts = []
        #expect(try child.require(FeedLoader.self).isStub)
        parent.contexts = []
        #expect(try !child.require(FeedLoader.self).isStub)
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

    @Test(".testValue makes the test value in a test context, for sync and async resolves")
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

    @Test(".testValue with decorators and hooks: those added after apply to the test value")
    func testValueWithDecoratorsAndHooks() throws {
        let hooked = Runs()
        let container = Container()
        container.register(FeedLoader.self) { FeedLoader(client: LiveHTTPClient(), isStub: false) }
            .decorated { FeedLoader(client: $0.client, isStub: $0.isStub) }
            .testValue { FeedLoader(client: LiveHTTPClient(), isStub: true) }
            .decorated { FeedLoader(client: FakeHTTPClient(), isStub: $0.isStub) }
            .onCreated { _, _ in hooked.note() }
        let loader = try container.require(FeedLoader.self)
        #expect(loader.isStub && !loader.client.isLive)
        #expect(hooked.value == 1)
    }

    @Test("the last of .liveOnly() and .testValue decides")
    func lastDecides() throws {
        let container = Container()
        container.register((any HTTPClient).self) { LiveHTTPClient() as any HTTPClient }
            .liveOnly()
            .testValue { FakeHTTPClient() }
        #expect(try !container.require((any HTTPClient).self).isLive)
        container.register((any HTTPClient).self) { LiveHTTPClient() as any HTTPClient }
            .testValue { FakeHTTPClient() }
            .liveOnly()
        #expect(expectRefusal(container) != nil)
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
        let named = #expect(throws: ResolutionError.self) {
            try container.require(FeedLoader.self, name: "main")
        }
        #expect(
            named?.description.contains(
                "`container.override(FeedLoader.self, name: \"main\") { FakeFeedLoader() }`") == true)
        let withArguments = #expect(throws: ResolutionError.self) {
            try container.require(FeedLoader.self, argument: true)
        }
        #expect(withArguments?.code == .liveOnly)
        #expect(withArguments?.description.contains("Register it again in the test's container") == true)
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

        #expect(try container.require(FeedLoader.self).isStub)
        #expect(try await container.resolveAsync(FeedLoader.self).isStub)
        #expect(try container.require(FeedLoader.self, argument: false).isStub)
        let refusal = await #expect(throws: ResolutionError.self) {
            _ = try await container.resolveAsync((any HTTPClient).self)
        }
        #expect(refusal?.code == .liveOnly)

        container.contexts = []
        #expect(try !container.require(FeedLoader.self).isStub)
        #expect(try !container.require(FeedLoader.self, argument: false).isStub)
        #expect(try await container.resolveAsync((any HTTPClient).self).isLive)
    }
}
