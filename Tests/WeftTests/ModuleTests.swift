import Testing
import WeftPrimitives

@testable import Weft

struct TestModule: Module {
    let name: String
    var dependencies: [String] = []
    var fails = false
    let log: Log

    func configure(_ container: Container) async throws {
        if fails { throw Boom() }
        log.append(name)
        container.register(String.self, name: name, instance: name)
    }
}

final class Log: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite("Modules and ordering")
struct ModuleTests {
    @Test("Modules are configured after the modules they depend on")
    func order() async throws {
        let log = Log()
        let container = Container()
        let order = try await container.install([
            TestModule(name: "Order", dependencies: ["User", "Payment"], log: log),
            TestModule(name: "User", dependencies: ["Core", "Network"], log: log),
            TestModule(name: "Payment", dependencies: ["Network"], log: log),
            TestModule(name: "Network", dependencies: ["Core"], log: log),
            TestModule(name: "Core", log: log),
        ])
        #expect(order == ["Core", "Network", "User", "Payment", "Order"])
        #expect(log.all == order)
        #expect(container.resolve(String.self, name: "Order") == "Order")
    }

    @Test("A module cycle throws with its path and installs nothing")
    func cycle() async {
        let container = Container()
        let log = Log()
        await #expect(throws: ModuleError.ordering(OrderingError.cycle(["A", "B", "C", "A"]))) {
            try await container.install([
                TestModule(name: "A", dependencies: ["B"], log: log),
                TestModule(name: "B", dependencies: ["C"], log: log),
                TestModule(name: "C", dependencies: ["A"], log: log),
            ])
        }
        #expect(log.all.isEmpty)
    }

    @Test("A missing or duplicate module is a typed error")
    func missingAndDuplicate() async {
        let log = Log()
        await #expect(throws: ModuleError.ordering(OrderingError.missing("Network", requiredBy: "User"))) {
            try await Container().install([TestModule(name: "User", dependencies: ["Network"], log: log)])
        }
        // A typo of a module in the list is named.
        let typo = await #expect(throws: ModuleError.self) {
            try await Container().install([
                TestModule(name: "Network", log: log), TestModule(name: "Needy", dependencies: ["Netwrok"], log: log),
            ])
        }
        #expect(typo?.orderingError?.closest == "Network")
        #expect(
            typo?.description.contains("Needy depends on Netwrok, which is not in the list. Did you mean Network?")
                == true)
        await #expect(throws: ModuleError.ordering(OrderingError.duplicate("Core"))) {
            try await Container().install([TestModule(name: "Core", log: log), TestModule(name: "Core", log: log)])
        }
    }

    @Test("A failing module installs nothing, not even the modules before it")
    func allOrNothing() async {
        let container = Container()
        let log = Log()
        let error = await #expect(throws: ModuleError.self) {
            try await container.install([
                TestModule(name: "Core", log: log),
                TestModule(name: "Broken", dependencies: ["Core"], fails: true, log: log),
            ])
        }
        #expect(error?.code == .configurationFailed)
        #expect(error?.module == "Broken")
        #expect(error?.description.hasPrefix("Module Broken failed to configure: ") == true)
        #expect(error?.underlyingError != nil)
        #expect(log.all == ["Core"])
        #expect(container.resolve(String.self, name: "Core") == nil)
    }

    @Test("Ordering is stable: unconstrained items keep their order")
    func stable() throws {
        let sorted = try DependencyOrder.sorted(["c", "a", "b"], name: { $0 }, dependencies: { _ in [] })
        #expect(sorted == ["c", "a", "b"])
    }
}

// MARK: - Bootstrapping components (seed 003)

final class PersistenceBootstrapping: Bootstrapping {
    let store = "banana store"
    func bootstrap(_ bootstrapped: Bootstrapped) throws {}
}

final class DomainBootstrapping: Bootstrapping {
    static var dependencies: [any Bootstrapping.Type] { [PersistenceBootstrapping.self] }
    private(set) var peeler: String?
    func bootstrap(_ bootstrapped: Bootstrapped) throws {
        peeler = "peeler of " + (try bootstrapped.component(PersistenceBootstrapping.self)).store
    }
}

final class UndeclaredBootstrapping: Bootstrapping {
    func bootstrap(_ bootstrapped: Bootstrapped) throws {
        _ = try bootstrapped.component(PersistenceBootstrapping.self)
    }
}

@Suite("Bootstrapping components")
struct BootstrappingTests {
    @Test("Components are bootstrapped in dependency order and can find each other")
    func ordered() throws {
        let domain = DomainBootstrapping()
        let bootstrapped = try Bootstrapped.bootstrap([domain, PersistenceBootstrapping()])
        #expect(bootstrapped.components.count == 2)
        #expect(try bootstrapped.component(DomainBootstrapping.self) === domain)
        #expect(domain.peeler == "peeler of banana store")
    }

    @Test("Bootstrapping grows a new collection and leaves the old one unchanged")
    func immutable() throws {
        let empty = Bootstrapped()
        let one = try empty.bootstrap(PersistenceBootstrapping())
        #expect(empty.components.isEmpty)
        #expect(one.components.count == 1)
    }

    @Test("Asking for a component not bootstrapped yet throws componentNotFound")
    func missingComponent() {
        #expect {
            try Bootstrapped().bootstrap(UndeclaredBootstrapping())
        } throws: { error in
            guard let error = error as? BootstrappingError, error.code == .componentNotFound else { return false }
            return error.component == "PersistenceBootstrapping"
        }
    }
}

/// A module that runs `body` as its configuration.
private struct ClosureModule: Module {
    let name: String
    var dependencies: [String] { [] }
    let body: @Sendable (Container) -> Void
    func configure(_ container: Container) async throws { body(container) }
}

@Suite("Registrations staged by install and update")
struct StagedRegistrationTests {
    @Test("Inside install, the later registration of a key wins over an earlier instance:, from a scope too")
    func laterFactoryWinsOverInstance() async throws {
        let container = Container()
        let scope = container.createScope()
        let made = Log()
        try await container.install([
            ClosureModule(name: "m") { c in
                c.register(Service.self, instance: Service(id: 1))
                c.register(Service.self, lifetime: .singleton) {
                    made.append("made")
                    return Service(id: 2)
                }
            }
        ])
        #expect(container.registrations.first { $0.key == ServiceKey(Service.self) }?.hasCachedInstance == false)
        #expect(try scope.require(Service.self).id == 2)
        #expect(try container.require(Service.self).id == 2)
        #expect(made.all == ["made"])
    }

    @Test("Inside update, an instance: registered after a factory is the value, cached at once")
    func laterInstanceWinsOverFactory() async {
        await Container.withIsolatedShared {
            await Container.updateAsync { c async in
                c.register(Service.self, lifetime: .transient) { Service(id: 1) }
                c.register(Service.self, instance: Service(id: 2))
            }
            let info = Container.shared.registrations.first { $0.key == ServiceKey(Service.self) }
            #expect(info?.lifetime == .singleton)
            #expect(info?.hasCachedInstance == true)
            #expect(Container.shared.resolve(Service.self)?.id == 2)
        }
    }

    @Test("Inside install, a registration for an inactive context keeps the active one's cached value")
    func inactiveContextKeepsCachedValue() async throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service(id: 1) }
        let cached = try container.require(Service.self)
        try await container.install([
            ClosureModule(name: "m") { c in c.register(Service.self, when: .preview) { Service(id: 2) } }
        ])
        #expect(try container.require(Service.self) === cached)
    }
}
