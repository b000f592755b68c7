import Testing

@testable import Weft

/// A resolve hands back the factory's value as the key's type, whether the value is stored as
/// exactly that type (the fast path) or as another one the runtime must cast.
@Suite("Resolved values keep their type")
struct ResolvedTypeTests {
    // @unchecked: no stored state at all; a non-final class cannot be checked `Sendable`.
    class Vehicle: @unchecked Sendable {
        var wheels: Int { 4 }
    }
    final class Bicycle: Vehicle, @unchecked Sendable {
        override var wheels: Int { 2 }
    }
    protocol Named: Sendable { var name: String { get } }
    /// Too large for an existential's inline buffer: stored in a box of its own.
    struct Record: Named, Equatable {
        let name: String
        let tags: [String]
        let first: String
        let second: String
    }
    struct Repository<Element>: Sendable { let label: String }

    @Test("a subclass made for its superclass's key resolves as that subclass")
    func subclassForSuperclassKey() throws {
        let container = Container()
        container.register(Vehicle.self) { Bicycle() }
        let vehicle = try container.require(Vehicle.self)
        #expect(vehicle is Bicycle)
        #expect(vehicle.wheels == 2)
    }

    @Test("a struct too large for an existential's buffer survives the resolve intact, sync and async")
    func boxedValue() async throws {
        let record = Record(name: "fact", tags: ["a", "b"], first: String(repeating: "x", count: 40), second: "y")
        let container = Container()
        container.register(Record.self) { record }
        container.register(Record.self, name: "async") { (_: Resolver) async throws -> Record in record }
        container.register((any Named).self) { record }
        #expect(try container.require(Record.self) == record)
        #expect(try await container.resolveAsync(Record.self, name: "async") == record)
        #expect(try container.require((any Named).self).name == "fact")
    }

    @Test("an optional service resolves to the optional the factory made, nil included")
    func optionalService() throws {
        let container = Container()
        container.register(Int?.self, name: "some") { 7 }
        container.register(Int?.self, name: "none") { nil }
        #expect(try container.require(Int?.self, name: "some") == .some(7))
        #expect(try container.require(Int?.self, name: "none") == .none)
    }

    @Test("generic types are told apart by their arguments")
    func genericArguments() throws {
        let container = Container()
        container.register(Repository<Int>.self) { Repository(label: "ints") }
        container.register(Repository<String>.self) { Repository(label: "strings") }
        #expect(try container.require(Repository<Int>.self).label == "ints")
        #expect(try container.require(Repository<String>.self).label == "strings")
    }

    @Test("a class instance resolves as the same object, transient or cached")
    func sameObject() throws {
        let bike = Bicycle()
        let container = Container()
        container.register(Bicycle.self, name: "transient") { bike }
        container.register(Bicycle.self, name: "singleton", lifetime: .singleton) { bike }
        #expect(try container.require(Bicycle.self, name: "transient") === bike)
        #expect(try container.require(Bicycle.self, name: "singleton") === bike)
        #expect(try container.require(Bicycle.self, name: "singleton") === bike)
    }
}
