import Logging
import Testing

@testable import Weft

/// Services named to sort before and after `Database`: validate() resolves keys in sorted order,
/// and what it made first must not decide a verdict.
private final class AServer: Sendable {}
private final class ZServer: Sendable {}
private final class AsyncStore: Sendable {}
private struct Request: Sendable {}

/// A synchronous factory of `Server` that resolves `AsyncStore`, whose factory is `async`.
private func registerServer<Server: AnyObject & Sendable>(
    _ server: Server.Type, in container: Container, make: @escaping @Sendable () -> Server
) {
    container.register(Server.self, lifetime: .singleton) { resolver in
        _ = try resolver.resolve(AsyncStore.self)
        return make()
    }
}

@Suite("validate() judges every edge, in any order")
struct ValidationVerdictTests {
    @Test("A synchronous singleton reaching an async one is reported whether its key sorts before or after")
    func bothOrders() async {
        let container = Container()
        container.register(AsyncStore.self, lifetime: .singleton) { _ async in AsyncStore() }
        registerServer(AServer.self, in: container) { AServer() }
        registerServer(ZServer.self, in: container) { ZServer() }
        let report = await container.validate()
        #expect(
            Set(report.problems) == [
                .requiresAsync(service: ServiceKey(AServer.self), dependency: ServiceKey(AsyncStore.self)),
                .requiresAsync(service: ServiceKey(ZServer.self), dependency: ServiceKey(AsyncStore.self)),
            ])
        // The verdict matches what a cold resolve does, for both.
        #expect(throws: ResolutionError.self) { try container.require(ZServer.self) }
        #expect(throws: ResolutionError.self) { try container.require(AServer.self) }
    }

    @Test("What the container itself made before validating does not hide the edge")
    func notHiddenByRealValues() async throws {
        let container = Container()
        container.register(AsyncStore.self, lifetime: .singleton) { _ async in AsyncStore() }
        registerServer(ZServer.self, in: container) { ZServer() }
        _ = try await container.resolveAsync(AsyncStore.self)
        // Served from the cache now, but only because of the order things happened in.
        _ = try container.require(ZServer.self)
        let report = await container.validate()
        #expect(report.problems.map(\.code) == [.requiresAsync])
    }

    @Test("Across containers: a child's and a scope's synchronous factory reaching the root's async singleton")
    func acrossContainers() async {
        let root = Container()
        root.register(AsyncStore.self, lifetime: .singleton) { _ async in AsyncStore() }
        let child = Container(parent: root)
        registerServer(AServer.self, in: child) { AServer() }
        let scope = child.createScope()
        scope.register(ZServer.self, lifetime: .scoped) { resolver in
            _ = try resolver.resolve(AsyncStore.self)
            return ZServer()
        }
        let fromChild = await child.validate()
        #expect(
            fromChild.problems == [
                .requiresAsync(service: ServiceKey(AServer.self), dependency: ServiceKey(AsyncStore.self))
            ]
        )
        let fromScope = await scope.validate()
        #expect(
            Set(fromScope.problems) == [
                .requiresAsync(service: ServiceKey(AServer.self), dependency: ServiceKey(AsyncStore.self)),
                .requiresAsync(service: ServiceKey(ZServer.self), dependency: ServiceKey(AsyncStore.self)),
            ])
    }

    @Test("An async factory that awaits its async dependency is fine")
    func asyncCallerIsFine() async {
        let container = Container()
        container.register(AsyncStore.self, lifetime: .singleton) { _ async in AsyncStore() }
        container.register(ZServer.self, lifetime: .singleton) { resolver async throws in
            _ = try await resolver.resolve(AsyncStore.self)
            return ZServer()
        }
        #expect(await container.validate().isValid)
    }

    @Test("Disposing what validation made still counts as validating: a server it never started is not stopped")
    func disposalIsValidating() async throws {
        final class Server: Disposable {
            let log: Log
            init(log: Log) { self.log = log }
            func dispose() async throws { log.append("dispose validating=\(Container.isValidating)") }
        }
        let log = Log()
        let container = Container()
        container.register(Server.self, lifetime: .singleton) { Server(log: log) }
        #expect(await container.validate().isValid)
        #expect(log.all == ["dispose validating=true"])
    }

    @Test("Factories know they run for validate(), and nothing else does")
    func isValidating() async throws {
        let container = Container()
        let seen = Log()
        container.register(AsyncStore.self) { () -> AsyncStore in
            seen.append("\(Container.isValidating)")
            return AsyncStore()
        }
        #expect(await container.validate().isValid)
        _ = try container.require(AsyncStore.self)
        #expect(seen.all == ["true", "false"])
        #expect(!Container.isValidating)
    }
}

@Suite("Scoped services outside a scope")
struct ScopeCheckTests {
    /// The line that registers `Request` below; `AsyncStore` is registered on the next.
    static let requestLine = 127
    private func container(validatesScopes: Bool, log: Log) -> Container {
        let container = Container()
        container.diagnostics.logger = CapturingLogHandler.logger(log, level: .warning)
        container.diagnostics.validatesScopes = validatesScopes
        container.register(Request.self, lifetime: .scoped) { Request() }  // the line of requestLine
        container.register(AsyncStore.self, lifetime: .singleton) { resolver in
            _ = try resolver.resolve(Request.self)
            return AsyncStore()
        }
        return container
    }

    @Test("By default a scoped service made in a root is made, with a warning that says where it was resolved")
    func warns() throws {
        let log = Log()
        let root = container(validatesScopes: false, log: log)
        _ = try root.require(AsyncStore.self)
        #expect(log.all.count == 1)
        #expect(
            log.all.first?.hasPrefix(
                "warning: Request (registered at WeftTests/ValidationVerdictTests.swift:\(Self.requestLine), "
                    + "needed by AsyncStore at WeftTests/ValidationVerdictTests.swift:\(Self.requestLine + 1)) "
                    + "is scoped, but this resolve makes it in a root container") == true)
        _ = try root.require(Request.self)  // cached in the root by now: no second warning
        #expect(log.all.count == 1)
    }

    @Test("With validatesScopes it is a typed error; from a scope it is fine, and validate() is silent")
    func fails() async throws {
        let log = Log()
        let root = container(validatesScopes: true, log: log)
        #expect {
            try root.require(Request.self)
        } throws: { error in
            (error as? ResolutionError)?.code == .scopedOutsideScope
        }
        #expect {
            try root.require(AsyncStore.self)
        } throws: { error in
            let error = error as? ResolutionError
            return error?.code == .scopedOutsideScope && error?.path == [ServiceKey(AsyncStore.self)]
        }
        _ = try root.createScope().require(Request.self)
        _ = try await root.createScope().resolveAsync(Request.self)
        // validate() resolves from a copy of the root: only the captive singleton is a problem.
        #expect(await root.validate().problems.map(\.code) == [.captiveDependency])
        #expect(log.all.filter { $0.hasPrefix("warning") }.isEmpty)
    }

    @Test(
        "A parent's singleton keeps the parent's dependency when a child or scope registers it again: no captive, as resolution does"
    )
    func parentSingletonUnderChildOverride() async throws {
        // Issue 56's example: parent, singleton ValV needs SvcA (singleton); child and scope,
        // SvcA transient. A singleton's factory resolves from the container that registered it
        // (Lifetimes and scopes), so ValV holds the parent's SvcA, made once, whoever asks:
        // nothing is captive, and validate() says so from the child and from the scope.
        final class SvcA: Sendable {}
        final class ValV: Sendable {
            let a: SvcA
            init(a: SvcA) { self.a = a }
        }
        let parent = Container()
        parent.register(ValV.self, lifetime: .singleton) { resolver in ValV(a: try resolver.resolve(SvcA.self)) }
        parent.register(SvcA.self, lifetime: .singleton) { SvcA() }
        let child = Container(parent: parent)
        child.register(SvcA.self, lifetime: .transient) { SvcA() }
        let scope = parent.createScope()
        scope.register(SvcA.self, lifetime: .scoped) { SvcA() }
        for below in [child, scope] {
            #expect(try below.require(ValV.self).a === parent.require(SvcA.self))
            #expect(try below.require(ValV.self).a !== below.require(SvcA.self))
            #expect(await below.validate().problems.isEmpty)
        }
        // Registered only below, the dependency is missing where the singleton's factory looks.
        let bare = Container()
        bare.register(ValV.self, lifetime: .singleton) { resolver in ValV(a: try resolver.resolve(SvcA.self)) }
        let under = Container(parent: bare)
        under.register(SvcA.self, lifetime: .transient) { SvcA() }
        #expect(await under.validate().problems.map(\.code) == [.missingDependency])
        #expect(throws: ResolutionError.self) { try under.require(ValV.self) }
    }
}
