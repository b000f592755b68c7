import Testing
import WeftPrimitives

@testable import Weft

/// A class instance made on the cold path is kept in the published table and, by its slot, in
/// a list in creation order; the dictionary of values and the disposal list get it only when
/// something other than a resolve needs them. These tests hold that nothing can tell.
@Suite("Values the cold path leaves unfiled", .timeLimit(.minutes(1)))
struct UnfiledValueTests {
    /// A class whose disposal is logged (the disposal tests' own).
    typealias Resource = DisposalTests.Resource

    /// A value type: never left unfiled.
    struct Handle: Disposable {
        let name: String
        let log: Log
        func dispose() async throws { log.append(name) }
    }

    // @unchecked: no stored state; a non-final class cannot be checked `Sendable`.
    class Vehicle: @unchecked Sendable {}
    final class Bicycle: Vehicle, @unchecked Sendable {}

    /// How many class instances the container holds unfiled.
    private func unfiledCount(_ container: Container) -> Int {
        container.state.withLock { $0.cache.unfiledCount }
    }

    @Test("Class instances and a value type made in turns are disposed in reverse order of creation")
    func mixedOrder() async throws {
        let log = Log()
        let container = Container()
        container.register(Resource.self, name: "a", lifetime: .singleton) { Resource("a", log: log) }
        container.register(Handle.self, lifetime: .singleton) { Handle(name: "handle", log: log) }
        container.register(Resource.self, name: "b", lifetime: .singleton) { Resource("b", log: log) }
        _ = try container.require(Resource.self, name: "a")
        #expect(unfiledCount(container) == 1)
        _ = try container.require(Handle.self)
        #expect(unfiledCount(container) == 0, "a value type is filed, and files what came before it")
        _ = try container.require(Resource.self, name: "b")
        #expect(unfiledCount(container) == 1)
        try await container.shutdown()
        #expect(log.all == ["b", "handle", "a"])
    }

    @Test("A forgotten unfiled instance is still disposed at shutdown, after the one made again")
    func forgottenStaysDisposable() async throws {
        let log = Log()
        let container = Container()
        let made = Counter()
        container.register(Resource.self, lifetime: .singleton) {
            defer { made.increment() }
            return Resource("r\(made.value)", log: log)
        }
        let first = try container.require(Resource.self)
        container.reset(Resource.self)
        let second = try container.require(Resource.self)
        #expect(first !== second)
        #expect(try container.require(Resource.self) === second)
        try await container.shutdown()
        #expect(log.all == ["r1", "r0"])
    }

    @Test("Unfiled instances outlive a table that grows: every one served, then disposed once, in reverse order")
    func growth() async throws {
        let log = Log()
        let container = Container()
        for index in 0..<2 {
            container.register(Resource.self, name: "\(index)", lifetime: .singleton) { Resource("\(index)", log: log) }
        }
        let early = try (0..<2).map { try container.require(Resource.self, name: "\($0)") }
        #expect(unfiledCount(container) == 2)
        for index in 2..<300 {
            container.register(Resource.self, name: "\(index)", lifetime: .singleton) { Resource("\(index)", log: log) }
        }
        let all = try (0..<300).map { try container.require(Resource.self, name: "\($0)") }
        #expect(zip(early, all).allSatisfy { $0 === $1 })
        #expect(try (0..<300).allSatisfy { try container.require(Resource.self, name: "\($0)") === all[$0] })
        try await container.shutdown()
        #expect(log.all == (0..<300).reversed().map { "\($0)" })
    }

    @Test("What reads the dictionary sees unfiled instances: introspection, health, tracing, scopes")
    func readersSeeThem() async throws {
        let log = Log()
        let container = Container()
        container.register(Resource.self, name: "named", lifetime: .singleton) { Resource("named", log: log) }
        container.register(Resource.self, lifetime: .singleton) { Resource("plain", log: log) }
        let named = try container.require(Resource.self, name: "named")
        let plain = try container.require(Resource.self)
        #expect(unfiledCount(container) == 2)
        let infos = container.registrations
        #expect(infos.count == 2 && infos.allSatisfy { $0.hasCachedInstance })
        #expect(unfiledCount(container) == 2, "a reader files nothing: no accessor has a side effect")
        // Replacing the table (here: unpublishing it while resolutions are traced) files first.
        container.diagnostics.onResolution = { _ in }
        #expect(unfiledCount(container) == 0)
        container.diagnostics.onResolution = nil

        let other = Container()
        other.register(Resource.self, lifetime: .singleton) { Resource("other", log: log) }
        let made = try other.require(Resource.self)
        let scope = other.createScope()
        #expect(try scope.require(Resource.self) === made)
        let traces = Log()
        other.diagnostics.onResolution = { traces.append("\($0.key) cached: \($0.wasCached)") }
        #expect(try other.require(Resource.self) === made)
        #expect(traces.all == ["Resource cached: true"])

        #expect(try container.require(Resource.self, name: "named") === named)
        #expect(try container.require(Resource.self) === plain)
    }

    @Test("A subclass's instance cached for its superclass's key is the one served, before and after it is filed")
    func subclassInstance() async throws {
        let container = Container()
        container.register(Vehicle.self, lifetime: .singleton) { Bicycle() }
        let made = try container.require(Vehicle.self)
        #expect(made is Bicycle)
        #expect(unfiledCount(container) == 1)
        #expect(try container.require(Vehicle.self) === made)
        #expect(container.resolve(Vehicle.self) === made)
        _ = container.registrations
        #expect(unfiledCount(container) == 1)
        _ = await container.checkHealth()
        #expect(unfiledCount(container) == 0, "a reader of every value files them")
        #expect(try container.require(Vehicle.self) === made)
        #expect(try container.createScope().require(Vehicle.self) === made)
    }
}
