import Testing

@testable import Weft

@Suite("Overrides and contexts")
struct OverrideTests {
    protocol API: Sendable { var name: String { get } }
    struct LiveAPI: API { let name = "live" }
    struct MockAPI: API { var name = "mock" }

    static func container() -> Container {
        let container = Container()
        container.register((any API).self, lifetime: .singleton) { LiveAPI() }
        return container
    }

    @Test("Factory register + reset: an override replaces the registration and restore() puts the original back")
    func factoryRegisterReset() throws {
        let container = Self.container()
        let live = try container.require((any API).self)
        #expect(live.name == "live")
        let override = container.override((any API).self) { MockAPI() }
        #expect(try container.require((any API).self).name == "mock")
        override.restore()
        #expect(try container.require((any API).self).name == "live")
        override.restore()
        #expect(try container.require((any API).self).name == "live")
    }

    @Test("Factory push/pop: overrides nest, and restoring them out of order leaves the others in place")
    func factoryPushPop() throws {
        let container = Self.container()
        let first = container.override((any API).self) { MockAPI(name: "first") }
        let second = container.override((any API).self) { MockAPI(name: "second") }
        #expect(try container.require((any API).self).name == "second")
        first.restore()
        #expect(try container.require((any API).self).name == "second")
        second.restore()
        #expect(try container.require((any API).self).name == "live")
    }

    @Test("Restoring twice, or out of order, keeps the values the effective registration made")
    func restoreKeepsEffectiveValues() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service(id: 1) }
        let override = container.override(Service.self, lifetime: .weak) { Service(id: 2) }
        override.restore()
        let first = try container.require(Service.self)
        override.restore()
        #expect(try container.require(Service.self) === first)

        let lower = container.override(Service.self, lifetime: .singleton) { Service(id: 3) }
        let upper = container.override(Service.self, lifetime: .singleton) { Service(id: 4) }
        let fromUpper = try container.require(Service.self)
        lower.restore()
        #expect(try container.require(Service.self) === fromUpper)
        upper.restore()
        #expect(try container.require(Service.self).id == 1)
    }

    @Test("An override restored after the key was registered again keeps the new registration's value")
    func restoreAfterRegisteringAgain() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service(id: 1) }
        let override = container.override(Service.self) { Service(id: 2) }
        container.register(Service.self, lifetime: .singleton) { Service(id: 3) }
        let registeredAgain = try container.require(Service.self)
        override.restore()
        #expect(try container.require(Service.self) === registeredAgain)
        #expect(registeredAgain.id == 3)
    }

    @Test("A scope's override hides its parent's registration; restored, the scope sees the parent's latest one")
    func restoreInScopeSeesParentsLatest() throws {
        let container = Container()
        container.register(Service.self) { Service(id: 1) }
        let scope = container.createScope()
        #expect(try scope.require(Service.self).id == 1)  // the scope remembers where Service is
        let override = scope.override(Service.self) { Service(id: 2) }
        container.register(Service.self) { Service(id: 3) }
        #expect(try scope.require(Service.self).id == 2)
        override.restore()
        #expect(try scope.require(Service.self).id == 3)
    }

    @Test("An override is in force over registrations for contexts, and survives a change of contexts")
    func overrideOverContexts() throws {
        let container = Container()
        container.register(Service.self) { Service(id: 1) }
        let override = container.override(Service.self) { Service(id: 2) }
        container.register(Service.self, when: .test) { Service(id: 3) }
        #expect(try container.require(Service.self).id == 2)
        container.contexts = [.test]
        #expect(try container.require(Service.self).id == 2)
        override.restore()
        #expect(try container.require(Service.self).id == 3)
        container.contexts = []
        #expect(try container.require(Service.self).id == 1)
    }

    @Test("Registering the key again ends its overrides; restoring one then changes nothing")
    func registeringAgainEndsOverrides() throws {
        let container = Container()
        let override = container.override(Service.self) { Service(id: 1) }
        container.register(Service.self, lifetime: .singleton) { Service(id: 2) }
        let registered = try container.require(Service.self)
        override.restore()
        #expect(try container.require(Service.self) === registered)
    }

    @Test("An instance: registration that a context's registration hides is not what resolves")
    func hiddenInstanceIsNotCached() throws {
        let container = Container()
        container.register(Service.self, when: .test) { Service(id: 1) }
        _ = container.override(Service.self) { Service(id: 3) }
        container.contexts = [.test]
        container.register(Service.self, instance: Service(id: 2))  // ends the override
        #expect(try container.require(Service.self).id == 1)
        #expect(container.registrations.first?.hasCachedInstance == false)
        container.contexts = []
        #expect(try container.require(Service.self).id == 2)
    }

    @Test("unregister removes registrations for contexts that are not active")
    func unregisterRemovesInactiveContexts() {
        let container = Container()
        container.register(Service.self, when: .test) { Service(id: 1) }
        container.unregister(Service.self)
        container.contexts = [.test]
        #expect(container.resolve(Service.self) == nil)
    }

    @Test("An override of a key nothing registered is removed on restore; scopes forget the override's values")
    func overrideUnregistered() throws {
        let container = Container()
        let scope = container.createScope()
        let override = container.override(Service.self, lifetime: .scoped) { Service(id: 1) }
        #expect(try scope.require(Service.self).id == 1)
        override.restore()
        #expect(scope.resolve(Service.self) == nil)
    }

    @Test("withIsolatedShared keeps overrides of parallel tests apart")
    func isolatedOverrides() async throws {
        try await withThrowingTaskGroup(of: String.self) { group in
            for name in ["a", "b", "c", "d"] {
                group.addTask {
                    try await Container.withIsolatedShared(Self.container()) {
                        let override = Container.shared.override((any API).self) { MockAPI(name: name) }
                        await Task.yield()
                        defer { override.restore() }
                        return try Container.shared.require((any API).self).name
                    }
                }
            }
            var names: Set<String> = []
            for try await name in group { names.insert(name) }
            #expect(names == ["a", "b", "c", "d"])
        }
    }

    @Test("Factory contexts (onTest, onDebug, onArg): the registration for an active context is chosen at resolve time")
    func factoryContexts() throws {
        let staging: Container.Context = "staging"
        let container = Self.container()
        container.register((any API).self, lifetime: .singleton, when: .test) { MockAPI(name: "test") }
        container.register((any API).self, lifetime: .singleton, when: staging) { MockAPI(name: "staging") }
        // A container of a test starts with `.test` (`Context.defaults`): the test value.
        #expect(try container.require((any API).self).name == "test")
        container.contexts = []
        let live = try container.require((any API).self)
        #expect(live.name == "live")

        container.contexts = [.test]
        #expect(try container.require((any API).self).name == "test")
        container.contexts = [.test, staging]
        #expect(try container.require((any API).self).name == "staging")
        container.contexts = []
        #expect(try container.require((any API).self).name == "live")
    }

    @Test("Registering for an inactive context keeps the active registration's cached value")
    func inactiveContextKeepsCache() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service() }
        let service = try container.require(Service.self)
        container.register(Service.self, lifetime: .singleton, when: .preview) { Service() }
        #expect(try container.require(Service.self) === service)
    }

    @Test("A child starts with its parent's contexts; a context-only registration is missing outside it")
    func childContexts() throws {
        let container = Container()
        container.register(Service.self, when: .debug) { Service(id: 9) }
        #expect(container.resolve(Service.self) == nil)
        container.contexts = [.debug]
        let child = Container(parent: container)
        #expect(child.contexts == [.debug])
        #expect(try child.require(Service.self).id == 9)
    }
}
