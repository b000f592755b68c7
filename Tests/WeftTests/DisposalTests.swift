import Dispatch
import Foundation
import Testing

@testable import Weft

/// Services that hold resources are disposed by `shutdown()`: once, in reverse order of creation.
@Suite("Disposal, in reverse order", .timeLimit(.minutes(1)))
struct DisposalTests {
    final class Resource: Disposable {
        let name: String
        let log: Log
        let fails: Bool
        init(_ name: String, log: Log, fails: Bool = false) {
            self.name = name
            self.log = log
            self.fails = fails
        }
        func dispose() async throws {
            log.append(name)
            if fails { throw Boom() }
        }
    }
    struct A: Sendable { let resource: Resource }
    struct B: Sendable { let resource: Resource }

    @Test("A created before B: B is disposed before A")
    func reverseOrder() async throws {
        let log = Log()
        let container = Container()
        container.register(Resource.self, name: "database", lifetime: .singleton) { Resource("database", log: log) }
        container.register(Resource.self, name: "server", lifetime: .singleton) { r in
            _ = try r.resolve(Resource.self, name: "database")  // the database is created first
            return Resource("server", log: log)
        }
        container.register(Resource.self, name: "cache", lifetime: .singleton) { Resource("cache", log: log) }
        _ = try container.require(Resource.self, name: "server")
        _ = try container.require(Resource.self, name: "cache")
        try await container.shutdown()
        #expect(log.all == ["cache", "server", "database"])
    }

    @Test("Concurrent shutdown calls dispose each service exactly once")
    func exactlyOnce() async throws {
        let log = Log()
        let container = Container()
        for index in 0..<20 {
            container.register(Resource.self, name: "r\(index)", lifetime: .singleton) {
                Resource("r\(index)", log: log)
            }
            _ = try container.require(Resource.self, name: "r\(index)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { try await container.shutdown() } }
            try await group.waitForAll()
        }
        #expect(log.all.count == 20)
        #expect(Set(log.all).count == 20)
    }

    @Test("A failing disposer does not stop the others; every failure is reported")
    func failuresCollected() async throws {
        let log = Log()
        let container = Container()
        container.register(Resource.self, name: "first", lifetime: .singleton) { Resource("first", log: log) }
        container.register(Resource.self, name: "broken", lifetime: .singleton) {
            Resource("broken", log: log, fails: true)
        }
        container.register(Resource.self, name: "last", lifetime: .singleton) { Resource("last", log: log) }
        for name in ["first", "broken", "last"] { _ = try container.require(Resource.self, name: name) }
        let error = await #expect(throws: ShutdownError.self) { try await container.shutdown() }
        #expect(error?.failures.map(\.key) == [ServiceKey(Resource.self, name: "broken")])
        #expect(log.all == ["last", "broken", "first"])
        // A second call shares the outcome; nothing is disposed twice.
        await #expect(throws: ShutdownError.self) { try await container.shutdown() }
        #expect(log.all.count == 3)
    }

    @Test("Resolving after shutdown is a typed error, for cached values too")
    func resolveAfterShutdown() async throws {
        let log = Log()
        let container = Container()
        container.register(Resource.self, lifetime: .singleton) { Resource("r", log: log) }
        container.register(Int.self) { 1 }
        for _ in 0..<4 { _ = try container.require(Resource.self) }  // published lock-free
        try await container.shutdown()
        let error = #expect(throws: ResolutionError.self) { try container.require(Resource.self) }
        guard let failure = error, failure.code == .shutDown else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let key = failure.key
        #expect(key == ServiceKey(Resource.self))
        #expect(container.resolve(Int.self) == nil)
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Int.self) }
        #expect(log.all == ["r"])
    }

    @Test("A scope disposes its own scoped values when shut down, not its parent's singletons")
    func scopeDisposesItsOwn() async throws {
        let log = Log()
        let root = Container()
        root.register(A.self, lifetime: .singleton) { A(resource: Resource("shared", log: log)) }
        root.register(Resource.self, lifetime: .scoped) { Resource("request", log: log) }
        root.register(Resource.self, name: "shared", lifetime: .singleton) { Resource("shared", log: log) }
        let scope = root.createScope()
        _ = try scope.require(Resource.self)
        _ = try scope.require(Resource.self, name: "shared")
        try await scope.shutdown()
        #expect(log.all == ["request"])
        #expect(try root.require(Resource.self, name: "shared").name == "shared")
        try await root.shutdown()
        #expect(log.all == ["request", "shared"])
    }

    @Test("A scope of a shut-down container keeps its scoped values; the parent's singletons fail")
    func scopeKeepsItsScopedValues() async throws {
        let log = Log()
        let root = Container()
        root.register(Resource.self, lifetime: .scoped) { Resource("request", log: log) }
        root.register(Resource.self, name: "shared", lifetime: .singleton) { Resource("shared", log: log) }
        let scope = root.createScope()
        let request = try scope.require(Resource.self)
        _ = try scope.require(Resource.self, name: "shared")
        try await root.shutdown()
        #expect(try scope.require(Resource.self) === request)
        let error = #expect(throws: ResolutionError.self) { try scope.require(Resource.self, name: "shared") }
        #expect(error?.code == .shutDown)
        #expect(log.all == ["shared"])
    }

    @Test("An instance: registration's value is the caller's: not disposed, also when cached again after a reset")
    func givenInstanceIsNotDisposed() async throws {
        let log = Log()
        let container = Container()
        let given = Resource("given", log: log)
        container.register(Resource.self, instance: given)
        container.reset(Resource.self)
        #expect(try container.require(Resource.self) === given)
        try await container.shutdown()
        #expect(log.all.isEmpty)
    }

    @Test("A synchronous resolve of an async factory's service held by a shut-down container says shut down")
    func asyncFactoryAfterShutdown() async throws {
        let root = Container()
        root.register(Resource.self, lifetime: .singleton) { _ async in Resource("async", log: Log()) }
        let child = Container(parent: root)
        try await root.shutdown()
        let error = #expect(throws: ResolutionError.self) { try child.require(Resource.self) }
        #expect(error?.code == .shutDown)
    }

    @Test("A resolve from a shut-down container reaches onResolutionError, as every outermost error does")
    func shutDownIsReported() async throws {
        let container = Container()
        let reported = Log()
        container.diagnostics.onResolutionError = { reported.append("\($0.code)") }
        container.register(Resource.self) { Resource("r", log: Log()) }
        try await container.shutdown()
        #expect(container.resolve(Resource.self) == nil)
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Resource.self) }
        #expect(reported.all == ["shutDown", "shutDown"])
    }

    @Test("A scope of a shut-down container cannot make the parent's singletons again")
    func parentShutDown() async throws {
        let log = Log()
        let root = Container()
        root.register(Resource.self, lifetime: .singleton) { Resource("shared", log: log) }
        let scope = root.createScope()
        try await root.shutdown()
        #expect(throws: ResolutionError.self) { try scope.require(Resource.self) }
        #expect(log.all.isEmpty)
    }

    @Test("A service whose factory finishes after shutdown began is disposed at once; its resolves fail with shutDown")
    func lateCreationDisposed() async throws {
        let log = Log()
        let started = Signal()
        let release = Signal()
        let container = Container()
        container.register(Resource.self, lifetime: .singleton) { (_: Resolver) async -> Resource in
            started.fire()
            await release.wait()  // shutdown happens here
            return Resource("late", log: log)
        }
        let creator = Task { try await container.resolveAsync(Resource.self) }
        await started.wait()
        let waiter = Task { try await container.resolveAsync(Resource.self) }
        await container.waitUntil(waiters: 1, for: ServiceKey(Resource.self))
        try await container.shutdown()
        #expect(log.all.isEmpty, "nothing was cached to dispose yet")
        release.fire()
        for task in [creator, waiter] {
            let error = await #expect(throws: ResolutionError.self) { try await task.value }
            guard let failure = error, failure.code == .shutDown else {
                Issue.record("expected shutDown, got \(String(describing: error))")
                continue
            }
        }
        #expect(log.all == ["late"], "disposed before the creator's resolve returned, once")
    }

    @Test("A synchronous factory that finishes after shutdown: its value is disposed too")
    func lateSyncCreationDisposed() async throws {
        let disposed = Signal()
        final class Handle: Disposable {
            let disposed: Signal
            init(_ disposed: Signal) { self.disposed = disposed }
            func dispose() async { disposed.fire() }
        }
        let started = Signal()
        let release = DispatchSemaphore(value: 0)
        let container = Container()
        container.register(Handle.self, lifetime: .singleton) {
            started.fire()
            release.wait()
            return Handle(disposed)
        }
        // A thread of its own: the factory blocks, which a task of the shared pool must not.
        let (outcome, delivery) = AsyncStream.makeStream(of: Result<Handle, ResolutionError>.self)
        Thread {
            delivery.yield(Result { () throws(ResolutionError) in try container.require(Handle.self) })
            delivery.finish()
        }.start()
        await started.wait()
        try await container.shutdown()
        release.signal()
        var iterator = outcome.makeAsyncIterator()
        let result = try #require(await iterator.next())
        let error = #expect(throws: ResolutionError.self) { try result.get() }
        guard let failure = error, failure.code == .shutDown else {
            Issue.record("expected shutDown, got \(String(describing: error))")
            return
        }
        await disposed.wait()  // the test's time limit fails it if the value is never disposed
    }
}
