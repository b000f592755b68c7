import Logging
import Testing

@testable import Weft

/// `register(_:owning:)`: a value start-up made is the container's to dispose.
@Suite("Owned instances", .timeLimit(.minutes(1)))
struct OwnedInstanceTests {
    typealias Resource = DisposalTests.Resource
    private struct Plain: Sendable {}

    @Test("An owned value is disposed at shutdown, after what was made from it, before what was made before it")
    func disposedInOrder() async throws {
        let log = Log()
        let container = Container()
        container.register(Resource.self, name: "config", lifetime: .singleton) { Resource("config", log: log) }
        _ = try container.require(Resource.self, name: "config")
        container.register(Resource.self, name: "pool", owning: Resource("pool", log: log))
        container.register(Resource.self, name: "server", lifetime: .singleton) { r in
            _ = try r.resolve(Resource.self, name: "pool")
            return Resource("server", log: log)
        }
        _ = try container.require(Resource.self, name: "server")
        try await container.shutdown()
        #expect(log.all == ["server", "pool", "config"])
        try await container.shutdown()  // once
        #expect(log.all.count == 3)
    }

    @Test("An instance: value stays the caller's; an owned one replaced or reset is still disposed, once")
    func instanceVersusOwned() async throws {
        let log = Log()
        let container = Container()
        container.register(Resource.self, name: "given", instance: Resource("given", log: log))
        container.register(Resource.self, name: "owned", owning: Resource("owned", log: log))
        container.reset(Resource.self, name: "owned")
        _ = try container.require(Resource.self, name: "owned")  // the same value, cached again
        container.register(Resource.self, name: "owned", owning: Resource("replacement", log: log))
        try await container.shutdown()
        #expect(log.all == ["replacement", "owned"])
    }

    @Test("Owned inside update() once it applies; on a container shut down, the caller's")
    func stagedAndShutDown() async throws {
        let log = Log()
        let container = Container()
        await Container.withIsolatedShared(container) {
            await Container.update { $0.register(Resource.self, owning: Resource("staged", log: log)) }
        }
        try await container.shutdown()
        #expect(log.all == ["staged"])
        container.register(Resource.self, name: "late", owning: Resource("late", log: log))
        try await container.shutdown()
        #expect(log.all == ["staged"])
    }

    @Test("An owned value that is not Disposable is registered, and the logger says there is nothing to dispose")
    func notDisposable() throws {
        let lines = Log()
        let container = Container()
        container.diagnostics.logger = CapturingLogHandler.logger(lines, level: .warning)
        container.register(Plain.self, owning: Plain())
        _ = try container.require(Plain.self)
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("Plain (registered at WeftTests/OwnedInstanceTests.swift:") == true)
        #expect(lines.all.first?.contains("is registered with `owning:` but is not Disposable") == true)
    }
}
