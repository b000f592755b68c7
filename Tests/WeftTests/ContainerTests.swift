import Testing

@testable import Weft

@Suite("Registering and resolving")
struct ContainerTests {
    @Test("A factory does not run at registration, only on resolve")
    func lazy() throws {
        let container = Container()
        let runs = Counter()
        container.register(Service.self) {
            runs.increment()
            return Service()
        }
        #expect(runs.value == 0)
        _ = try container.require(Service.self)
        #expect(runs.value == 1)
    }

    @Test("Transient is the default and makes a new value on every resolve")
    func transientByDefault() throws {
        let container = Container()
        container.register(Service.self) { Service() }
        let first = try container.require(Service.self)
        let second = try container.require(Service.self)
        #expect(first !== second)
    }

    @Test("Generic types are distinct keys")
    func genericKeys() {
        let container = Container()
        container.register(Repository<User>.self) { Repository(label: "users") }
        container.register(Repository<Product>.self) { Repository(label: "products") }
        #expect(container.resolve(Repository<User>.self)?.label == "users")
        #expect(container.resolve(Repository<Product>.self)?.label == "products")
    }

    @Test("Named registrations are separate from the unnamed one")
    func named() {
        let container = Container()
        container.register(Logger.self) { ConsoleLogger(name: "default") }
        container.register(Logger.self, name: "audit") { ConsoleLogger(name: "audit") }
        #expect(container.resolve(Logger.self)?.name == "default")
        #expect(container.resolve(Logger.self, name: "audit")?.name == "audit")
        #expect(container.resolve(Logger.self, name: "other") == nil)
    }

    @Test("An instance registration returns that very instance")
    func instance() {
        let container = Container()
        let service = Service(id: 7)
        container.register(Service.self, instance: service)
        #expect(container.resolve(Service.self) === service)
    }

    @Test("Registering again replaces the registration and its cached value")
    func replace() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service(id: 1) }
        #expect(try container.require(Service.self).id == 1)
        container.register(Service.self, lifetime: .singleton) { Service(id: 2) }
        #expect(try container.require(Service.self).id == 2)
    }

    @Test(
        "Registering again while the old singleton is being created: later resolves use the new registration",
        .timeLimit(.minutes(1)))
    func replaceDuringCreation() async throws {
        let container = Container()
        let entered = Signal()
        let proceed = Signal()
        container.register(Service.self, lifetime: .singleton) { (_: Resolver) async throws in
            entered.fire()
            await proceed.wait()
            return Service(id: 1)
        }
        async let first = container.resolveAsync(Service.self)
        await entered.wait()
        container.register(Service.self, lifetime: .singleton) { Service(id: 2) }
        // Not the creation in flight: that belongs to the replaced registration.
        #expect(try await container.resolveAsync(Service.self).id == 2)
        proceed.fire()
        #expect(try await first.id == 1)
        // The old registration's value, finished last, is not cached over the new one.
        #expect(try container.require(Service.self).id == 2)
    }

    @Test("A missing registration names the type and suggests close registrations")
    func notRegistered() {
        let container = Container()
        container.register(Service.self, name: "basic") { Service() }
        container.register(Repository<User>.self) { Repository(label: "") }
        #expect(container.resolve(Service.self) == nil)
        do {
            _ = try container.require(Service.self)
            Issue.record("expected an error")
        } catch {
            guard error.code == .notRegistered else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.key == ServiceKey(Service.self))
            #expect(error.suggestions == [ServiceKey(Service.self, name: "basic")])
            #expect(error.description.contains("No registration for Service"))
            #expect(error.description.contains("Did you mean \"basic\" Service?"))
        }
    }

    @Test("Asking for a concrete type whose protocol is registered names the protocol, and the other way")
    func protocolSuggestions() {
        let container = Container()
        container.register((any SuggestedLogger).self) { ConsoleSuggestedLogger() }
        let error = #expect(throws: ResolutionError.self) { try container.require(ConsoleSuggestedLogger.self) }
        #expect(error?.suggestions == [ServiceKey((any SuggestedLogger).self)])
        #expect(error?.description.contains("Did you mean SuggestedLogger?") == true)
        #expect(
            error?.description.contains(
                "If SuggestedLogger is a protocol ConsoleSuggestedLogger conforms to, resolve `(any SuggestedLogger).self`"
            )
                == true)

        let concrete = Container()
        concrete.register(ConsoleSuggestedLogger.self) { ConsoleSuggestedLogger() }
        let reverse = #expect(throws: ResolutionError.self) { try concrete.require((any SuggestedLogger).self) }
        #expect(reverse?.suggestions == [ServiceKey(ConsoleSuggestedLogger.self)])
        #expect(reverse?.description.contains("also: (any SuggestedLogger).self") == true)
    }

    @Test("A failing factory surfaces its underlying error and the path to it")
    func factoryFailed() throws {
        let container = Container()
        let line = #line + 1
        container.register(ServiceB.self) { () throws -> ServiceB in throw Boom() }
        container.register(ServiceA.self) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(ServiceA.self) }
        guard let failure = error, failure.code == .factoryFailed else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let key = failure.key
        let path = failure.path
        let underlying = failure.underlyingError
        #expect(key == ServiceKey(ServiceB.self))
        #expect(path == [ServiceKey(ServiceA.self)])
        #expect(underlying is Boom)
        #expect(failure.sites[key] == RegistrationSite(fileID: "WeftTests/ContainerTests.swift", line: line))
        #expect(failure.sites[ServiceKey(ServiceA.self)] == RegistrationSite(fileID: #fileID, line: line + 1))
        #expect(
            error?.description == "The factory of ServiceB (registered at WeftTests/ContainerTests.swift:\(line), "
                + "needed by ServiceA at WeftTests/ContainerTests.swift:\(line + 1)) threw: boom")
    }

    @Test("An async registration reached from a synchronous resolve says it needs async")
    func requiresAsync() async throws {
        let container = Container()
        container.register(ServiceB.self) { (_: Resolver) async throws -> ServiceB in ServiceB() }
        container.register(ServiceA.self) { resolver in
            _ = try resolver.resolve(ServiceB.self)
            return ServiceA()
        }
        let error = #expect(throws: ResolutionError.self) { try container.require(ServiceA.self) }
        guard let failure = error, failure.code == .requiresAsync else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        let key = failure.key
        let path = failure.path
        #expect(key == ServiceKey(ServiceB.self))
        #expect(path == [ServiceKey(ServiceA.self)])
        // The async path resolves it.
        _ = try await container.resolveAsync(ServiceB.self)
    }

    @Test("Async factories resolve their dependencies with try await, as in seed 002")
    func asyncFactories() async throws {
        let container = Container()
        container.register(Logger.self, lifetime: .singleton) { _ in ConsoleLogger(name: "root") }
        container.register(Service.self) { resolver in
            let logger = try await resolver.resolve(Logger.self)
            await Task.yield()
            return Service(id: logger.name.count)
        }
        #expect(try await container.resolveAsync(Service.self).id == 4)
    }

    @Test("A child resolves from its parent and its own registrations override")
    func parentChild() {
        let parent = Container()
        parent.register(Logger.self) { ConsoleLogger(name: "parent") }
        parent.register(Service.self) { Service(id: 1) }
        let child = Container(parent: parent)
        child.register(Logger.self) { ConsoleLogger(name: "child") }
        #expect(child.resolve(Logger.self)?.name == "child")
        #expect(child.resolve(Service.self)?.id == 1)
        #expect(parent.resolve(Logger.self)?.name == "parent")
    }

    @Test("A parent's singleton resolves its dependencies from the parent, not the asking child")
    func singletonResolvesFromOwner() throws {
        let parent = Container()
        parent.register(Logger.self) { ConsoleLogger(name: "parent") }
        parent.register(String.self, lifetime: .singleton) { resolver in try resolver.resolve(Logger.self).name }
        let child = Container(parent: parent)
        child.register(Logger.self) { ConsoleLogger(name: "child") }
        #expect(try child.require(String.self) == "parent")
    }

    @Test("Registrations list lifetimes and whether a value is held")
    func registrations() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service() }
        container.register(Logger.self) { ConsoleLogger() }
        #expect(container.registrations.map(\.hasCachedInstance) == [false, false])
        _ = try container.require(Service.self)
        let infos = Dictionary(uniqueKeysWithValues: container.registrations.map { ($0.key.typeName, $0) })
        #expect(infos["Service"]?.hasCachedInstance == true)
        #expect(infos["Service"]?.lifetime == .singleton)
        #expect(infos["Logger"]?.hasCachedInstance == false)
    }
}

protocol SuggestedLogger: Sendable {}
struct ConsoleSuggestedLogger: SuggestedLogger {}
