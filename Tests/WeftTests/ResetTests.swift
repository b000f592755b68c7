import Testing

@testable import Weft

@Suite("Cache reset and unregister")
struct ResetTests {
    @Test(
        "Swinject resetObjectScope(.container): reset(lifetime:) drops singletons here and in scopes below; transients untouched"
    )
    func swinjectResetObjectScope() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service() }
        container.register(Service.self, name: "scoped", lifetime: .scoped) { Service() }
        let scope = container.createScope()
        let singleton = try scope.require(Service.self)
        let scoped = try scope.require(Service.self, name: "scoped")

        container.reset(lifetime: .singleton)
        let newSingleton = try scope.require(Service.self)
        #expect(newSingleton !== singleton)
        #expect(try scope.require(Service.self, name: "scoped") === scoped)

        container.reset(lifetime: .scoped)
        #expect(try scope.require(Service.self, name: "scoped") !== scoped)
        #expect(try container.require(Service.self) === newSingleton)
    }

    @Test("Factory Scope.reset: logout drops the user's singletons, account switching makes new ones")
    func factoryScopeReset() throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self, name: "session", lifetime: .singleton) {
            made.increment()
            return Service()
        }
        let alice = try container.require(Service.self, name: "session")
        #expect(try container.require(Service.self, name: "session") === alice)
        container.reset(Service.self, name: "session")
        #expect(try container.require(Service.self, name: "session") !== alice)
        #expect(made.value == 2)
    }

    @Test("reset(T) drops one key's cached value only, lock-free readers included")
    func resetOneKey() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service() }
        container.register(Child.self, lifetime: .singleton) { Child() }
        // Enough reads to be served from the published snapshot.
        let service = try container.require(Service.self)
        let child = try container.require(Child.self)
        for _ in 0..<8 { _ = try container.require(Service.self) }
        container.reset(Service.self)
        #expect(try container.require(Service.self) !== service)
        #expect(try container.require(Child.self) === child)
    }

    @Test("Swinject removeAll / unregister: the key is no longer registered; a parent's registration shows through")
    func swinjectUnregister() throws {
        let parent = Container()
        parent.register(Service.self) { Service(id: 1) }
        let child = Container(parent: parent)
        child.register(Service.self, lifetime: .singleton) { Service(id: 2) }
        #expect(try child.require(Service.self).id == 2)
        child.unregister(Service.self)
        #expect(try child.require(Service.self).id == 1)
        parent.unregister(Service.self)
        #expect(child.resolve(Service.self) == nil)
    }

    @Test("unregister forgets what scopes below cached of the registration")
    func unregisterForgetsInScopes() throws {
        let container = Container()
        container.register(Service.self, lifetime: .scoped) { Service() }
        let scope = container.createScope()
        _ = try scope.require(Service.self)
        container.unregister(Service.self)
        #expect(scope.resolve(Service.self) == nil)
    }

    @Test("Swinject removeAll: every registration and cached value goes; modules can be installed again")
    func swinjectRemoveAll() async throws {
        let container = Container()
        try await container.install([
            ProbeModule(name: "M") { $0.register(Service.self, lifetime: .singleton) { Service() } }
        ])
        container.register(Child.self) { Child() }
        _ = try container.require(Service.self)
        container.removeAll()
        #expect(container.registrations.isEmpty)
        #expect(container.resolve(Service.self) == nil)
        let installed = try await container.install([ProbeModule(name: "M") { $0.register(Service.self) { Service() } }]
        )
        #expect(installed == ["M"])
    }

    @Test("unregister removes a service's registrations with arguments too")
    func unregisterWithArguments() {
        let container = Container()
        container.register(Service.self) { (_: Resolver, id: Int) in Service(id: id) }
        container.unregister(Service.self)
        #expect(container.resolve(Service.self, argument: 1) == nil)
        #expect(container.registrations.isEmpty)
    }
}
