import Testing
import WeftPrimitives

@testable import Weft

/// The smaller capabilities Swinject and Factory users expect.
@Suite("Forwarding, optionals and default lifetimes")
struct PeerParityTests {
    protocol Animal: Sendable { var name: String { get } }
    final class Cat: Animal {
        let name = "Mimi"
    }

    @Test("Swinject ContainerTests.TypeForwarding: one registration, one singleton, two keys")
    func swinjectTypeForwarding() throws {
        let container = Container()
        let made = Counter()
        container.register(Cat.self, lifetime: .singleton, also: (any Animal).self) {
            made.increment()
            return Cat()
        }
        let cat = try container.require(Cat.self)
        let animal = try container.require((any Animal).self)
        #expect(animal as? Cat === cat)
        #expect(made.value == 1)
    }

    @Test("Forwarding an instance registration and an async factory")
    func forwardingInstanceAndAsync() async throws {
        let container = Container()
        let cat = Cat()
        container.register(Cat.self, also: (any Animal).self, instance: cat)
        #expect(try container.require((any Animal).self) as? Cat === cat)
        container.register(Cat.self, name: "async", lifetime: .singleton, also: (any Animal).self) {
            (_: Resolver) async throws -> Cat in Cat()
        }
        let first = try await container.resolveAsync((any Animal).self, name: "async")
        #expect(first as? Cat === (try await container.resolveAsync(Cat.self, name: "async")))
    }

    @Test("Swinject: resolving Optional<T> gives the registered T, and nil when T is not registered")
    func swinjectOptional() throws {
        let container = Container()
        #expect(try container.require(Cat?.self) == nil)
        container.register(Cat.self, lifetime: .singleton) { Cat() }
        let cat = try container.require(Cat.self)
        #expect(try container.require(Cat?.self) === cat)
        #expect(container.resolve(Cat?.self)??.name == "Mimi")
    }

    @Test("Optional<T> still fails when T is registered but its dependency is missing")
    func optionalDependencyMissing() {
        let container = Container()
        container.register(Cat.self) { resolver in
            _ = try resolver.resolve(Service.self)
            return Cat()
        }
        #expect(throws: ResolutionError.self) { try container.require(Cat?.self) }
    }

    @Test("Factory: a nil from an optional cached factory is not cached; the first value is")
    func factoryOptionalNilNotCached() throws {
        let container = Container()
        let runs = Counter()
        let ready = Locked(false)
        container.register(Service?.self, lifetime: .singleton) {
            runs.increment()
            return ready.withLock { $0 } ? Service() : nil
        }
        #expect(try container.require(Service?.self) == nil)
        #expect(try container.require(Service?.self) == nil)
        ready.withLock { $0 = true }
        let service = try container.require(Service?.self)
        #expect(service != nil)
        #expect(try container.require(Service?.self) === service)
        #expect(runs.value == 3)
    }

    @Test("Swinject defaultObjectScope: a container-wide default lifetime; children start with it; explicit wins")
    func swinjectDefaultObjectScope() throws {
        let container = Container()
        container.defaultLifetime = .singleton
        container.register(Service.self) { Service() }
        container.register(Service.self, name: "transient", lifetime: .transient) { Service() }
        #expect(try container.require(Service.self) === container.require(Service.self))
        #expect(
            try container.require(Service.self, name: "transient")
                !== container.require(Service.self, name: "transient"))
        #expect(container.createScope().defaultLifetime == .singleton)
        #expect(Container().defaultLifetime == .transient)
    }

    @Test("A registration that takes the default lifetime keeps its hooks and decorators, with or without a context")
    func defaultLifetimeKeepsHooks() throws {
        let container = Container()
        container.defaultLifetime = .singleton
        let hooked = Counter()
        let decorated = Counter()
        container.register(Service.self) { Service() }
            .decorated { service in
                decorated.increment()
                return service
            }
            .onCreated { _, _ in hooked.increment() }
        container.register(Service.self, name: "test", when: .test) { Service(id: 7) }
            .onCreated { _, _ in hooked.increment() }
        container.contexts = [.test]
        let first = try container.require(Service.self)
        #expect(try container.require(Service.self) === first)
        #expect(try container.require(Service.self, name: "test") === container.require(Service.self, name: "test"))
        #expect(try container.require(Service.self, name: "test").id == 7)
        #expect(decorated.value == 1)
        #expect(hooked.value == 2)
        #expect(container.registrations.allSatisfy { $0.lifetime == .singleton })
    }
}
