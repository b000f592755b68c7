import Testing
import WeftPrimitives

@testable import Weft

@Suite("onCreated hooks and decorators")
struct HookTests {
    protocol API: Sendable { var name: String { get } }
    struct HTTPAPI: API { let name = "http" }
    struct Logged: API {
        let wrapped: any API
        var name: String { "logged(\(wrapped.name))" }
    }

    @Test("Factory decorator: .decorated replaces each created value, in registration order")
    func factoryDecorator() throws {
        let container = Container()
        container.register((any API).self) { HTTPAPI() }
            .decorated { Logged(wrapped: $0) }
            .decorated { Logged(wrapped: $0) }
        #expect(try container.require((any API).self).name == "logged(logged(http))")
    }

    @Test("Swinject initCompleted: hooks run once per created singleton, in order, on the decorated value")
    func swinjectInitCompleted() throws {
        let container = Container()
        let events = Locked<[String]>([])
        container.register((any API).self, lifetime: .singleton) { HTTPAPI() }
            .onCreated { _, api in events.withLock { $0.append("first \(api.name)") } }
            .decorated { Logged(wrapped: $0) }
            .onCreated { _, api in events.withLock { $0.append("second \(api.name)") } }
        _ = try container.require((any API).self)
        _ = try container.require((any API).self)
        #expect(events.withLock { $0 } == ["first logged(http)", "second logged(http)"])
    }

    @Test("Swinject initCompleted on a transient: once per created value; a decorator runs once per value too")
    func transientHooks() throws {
        let container = Container()
        let hooks = Counter()
        let decorations = Counter()
        container.register(Service.self) { Service() }
            .decorated {
                decorations.increment()
                return $0
            }
            .onCreated { _, _ in hooks.increment() }
        for _ in 0..<3 { _ = try container.require(Service.self) }
        #expect(hooks.value == 3 && decorations.value == 3)
    }

    @Test("Swinject property injection: an onCreated hook resolves a dependency through its resolver")
    func propertyInjection() throws {
        let container = Container()
        container.register(Child.self, lifetime: .singleton) { Child() }
        container.register(Parent.self) { Parent() }
            .onCreated { resolver, parent in parent.child = try resolver.resolve(Child.self) }
        let parent = try container.require(Parent.self)
        #expect(parent.child === (try container.require(Child.self)))
    }

    @Test("A throwing hook fails the resolve with factoryFailed and the underlying error")
    func throwingHook() {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service() }
            .onCreated { _, _ in throw Boom() }
        let error = #expect(throws: ResolutionError.self) { try container.require(Service.self) }
        guard let failure = error, failure.code == .factoryFailed else {
            Issue.record("expected factoryFailed, got \(String(describing: error))")
            return
        }
        let underlying = failure.underlyingError
        #expect(underlying is Boom)
    }

    @Test("Hooks run exactly once when 100 tasks race to create a singleton")
    func hooksOnceUnderContention() async {
        let container = Container()
        let hooks = Counter()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async throws -> Service in
            await Task.yield()
            return Service()
        }
        .onCreated { _, _ in hooks.increment() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { _ = try? await container.resolveAsync(Service.self) } }
        }
        #expect(hooks.value == 1)
    }

    @Test("Hooks and decorators apply to arguments' factories and inside update")
    func hooksWithArgumentsAndStaging() async throws {
        let container = Container()
        let hooks = Counter()
        await Container.withIsolatedShared(container) {
            await Container.update { c in
                c.register(Service.self) { (_: Resolver, id: Int) in Service(id: id) }
                    .decorated { Service(id: $0.id * 10) }
                    .onCreated { _, _ in hooks.increment() }
            }
        }
        #expect(try container.require(Service.self, argument: 4).id == 40)
        #expect(hooks.value == 1)
    }

    @Test("register stays usable as a statement, and registering again drops the old hooks")
    func registeringAgainDropsHooks() throws {
        let container = Container()
        let hooks = Counter()
        container.register(Service.self) { Service() }.onCreated { _, _ in hooks.increment() }
        container.register(Service.self) { Service() }
        _ = try container.require(Service.self)
        #expect(hooks.value == 0)
    }
}
