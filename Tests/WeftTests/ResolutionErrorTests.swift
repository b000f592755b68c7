import Testing
import Weft

@Suite("ResolutionError")
struct ResolutionErrorTests {
    @Test("stays one reference wide, so typed throws through a deep resolution keep frames small")
    func layout() {
        #expect(MemoryLayout<ResolutionError>.size == MemoryLayout<AnyObject>.size)
    }

    @Test("each code carries its details and says what to do")
    func codes() {
        let a = ServiceKey(Int.self)
        let b = ServiceKey(String.self)
        let missing = ResolutionError.notRegistered(a, path: [b], suggestions: [ServiceKey(Int.self, name: "x")])
        #expect(missing.code == .notRegistered && missing.key == a && missing.path == [b])
        #expect(missing.description.contains("Register it with"))

        let cycle = ResolutionError.circularDependency(cycle: [a, b, a])
        #expect(cycle.code == .circularDependency && cycle.cycle == [a, b, a] && cycle.key == a)
        #expect(cycle.description.hasPrefix("Circular dependency: Int → String → Int."))

        struct Boom: Error {}
        let failed = ResolutionError.factoryFailed(a, path: [], underlying: Boom())
        #expect(failed.code == .factoryFailed && failed.underlyingError is Boom)

        let mismatch = ResolutionError.argumentMismatch(a, registered: Int.self, given: Void.self)
        #expect(mismatch.registeredArguments == Int.self && mismatch.givenArguments == Void.self)
        #expect(mismatch.description.contains("resolved with ()"))

        let codes: [ResolutionError.Code] = [
            .notRegistered, .circularDependency, .factoryFailed, .requiresAsync, .cancelled, .shutDown,
            .argumentMismatch,
        ]
        #expect(Set(codes).count == codes.count)
        #expect(codes.map(\.description).contains("requiresAsync"))
    }

    final class Pool: Sendable {}
    final class Repository: Sendable {}

    @Test(
        "a service registered only in a child, needed by the parent's singleton: the message says where it is and why it is not seen"
    )
    func registeredOutOfSight() throws {
        let parent = Container()
        parent.register(Repository.self, lifetime: .singleton) { r in
            _ = try r.resolve(Pool.self)
            return Repository()
        }
        let child = Container(parent: parent)
        child.register(Pool.self) { Pool() }
        let error = try #require(throws: ResolutionError.self) { try child.require(Repository.self) }
        #expect(error.code == .notRegistered && error.key == ServiceKey(Pool.self))
        // Not "No registration for Pool (registered at …)": that reads as a contradiction.
        #expect(error.description.hasPrefix("No registration for Pool (needed by Repository at WeftTests/"))
        #expect(error.description.contains("Pool is registered at WeftTests/ResolutionErrorTests.swift:"))
        #expect(error.description.contains("in a container the resolve of Repository does not see"))
        #expect(error.description.contains("Register Pool where Repository is registered"))
    }
}
