import Testing
import WeftPrimitives

@testable import Weft

// Issue 58: modules at app scale — provenance, requirements, duplicates, fakes, validation,
// the module graph and contributions.

private protocol DataStore: Sendable { var label: String { get } }
private struct RealStore: DataStore { let label = "real" }
private struct FakeStore: DataStore { let label = "fake" }
private struct FeedService: Sendable { let database: any DataStore }
private protocol HealthProbe: Sendable { var name: String { get } }
private struct NamedProbe: HealthProbe { let name: String }

/// A module configured by a closure, with the contract given.
private struct SpecModule: Module {
    let name: String
    var dependencies: [String] = []
    var requirements: [ServiceKey] = []
    var replaces: [String] = []
    let body: @Sendable (Container) -> Void
    func configure(_ container: Container) async throws { body(container) }
}

/// Replaces `DatabaseModule`'s store on purpose.
private struct OfflineStoreModule: Module {
    let name = "OfflineStore"
    var replaces: [String] { ["DataStore"] }
    func configure(_ container: Container) async throws {
        container.register((any DataStore).self, lifetime: .singleton) { FakeStore() }
    }
}

private struct DatabaseModule: Module {
    let name = "DataStore"
    func configure(_ container: Container) async throws {
        container.register((any DataStore).self, lifetime: .singleton) { RealStore() }
    }
}

private struct FeedModule: Module {
    let name = "FeedService"
    var dependencies: [String] { ["DataStore"] }
    var requirements: [ServiceKey] { [ServiceKey((any DataStore).self)] }
    func configure(_ container: Container) async throws {
        container.register(FeedService.self) { resolver in
            FeedService(database: try resolver.resolve((any DataStore).self))
        }
    }
}

private struct FakeDatabaseModule: Module {
    let name = "FakeStore"
    func configure(_ container: Container) async throws {
        container.register((any DataStore).self, lifetime: .singleton) { FakeStore() }
    }
}

private let databaseKey = ServiceKey((any DataStore).self)

@Suite("Modules: provenance, requirements, duplicates")
struct ModuleContractTests {
    @Test("A key a module registers records the module and its site; a plain register records nothing")
    func provenance() async throws {
        let container = Container()
        container.register(Service.self) { Service() }
        try await container.install([DatabaseModule()])
        let provenance = container.state.withLock { $0.provenance }
        #expect(provenance[databaseKey]?.module == "DataStore")
        #expect(provenance[databaseKey]?.site?.fileID == "WeftTests/ModuleContractTests.swift")
        #expect(provenance[ServiceKey(Service.self)] == nil)
        // Registering the key again outside modules forgets the module.
        container.register((any DataStore).self) { FakeStore() }
        #expect(container.state.withLock { $0.provenance[databaseKey] } == nil)
    }

    @Test("Unregistering and removeAll forget provenance")
    func provenanceForgotten() async throws {
        let container = Container()
        try await container.install([DatabaseModule()])
        container.unregister((any DataStore).self)
        #expect(container.state.withLock { $0.provenance.isEmpty })
        try await Container().install([DatabaseModule()])
    }

    @Test("Requirements met by the same install, the container or an ancestor install")
    func requirementsMet() async throws {
        try await Container().install([FeedModule(), DatabaseModule()])

        let parent = Container()
        parent.register((any DataStore).self) { RealStore() }
        let child = parent.createScope()
        let feed = SpecModule(name: "FeedService", requirements: [databaseKey]) { _ in }
        #expect(try await child.install([feed]) == ["FeedService"])
    }

    @Test("An unmet requirement throws ModuleError.unmetRequirement and applies nothing")
    func unmetRequirement() async {
        let container = Container()
        let other = SpecModule(name: "Other") { c in c.register(Service.self) { Service() } }
        let feed = SpecModule(name: "FeedService", requirements: [databaseKey]) { c in
            c.register(FeedService.self) { _ in FeedService(database: RealStore()) }
        }
        let expected = ModuleError.unmetRequirement(module: "FeedService", requirement: databaseKey)
        await #expect(throws: expected) { try await container.install([other, feed]) }
        #expect(container.resolve(Service.self) == nil)
        #expect(container.resolve(FeedService.self) == nil)
        #expect(container.state.withLock { $0.installedModules.isEmpty && $0.provenance.isEmpty })
        #expect(
            expected.description
                == "Module FeedService requires DataStore, which no installed module registers. Install a module that registers DataStore (or a fake of it), or drop the requirement."
        )
    }

    @Test("An install names every unmet requirement of the module, not only the first")
    func everyUnmetRequirement() async {
        let priceKey = ServiceKey(Service.self, name: "prices")
        let checkout = SpecModule(name: "Checkout", requirements: [databaseKey, priceKey]) { _ in }
        let error = await #expect(throws: ModuleError.self) { try await Container().install([checkout]) }
        #expect(error?.unmetRequirements == [databaseKey, priceKey])
        #expect(
            error?.description.hasPrefix(
                "Module Checkout requires DataStore and \"prices\" Service, which no installed module registers.")
                == true)
    }

    @Test("A registration for an inactive context does not meet a requirement")
    func inactiveContextRequirement() async {
        let container = Container()
        let module = SpecModule(name: "Preview") { c in
            c.register((any DataStore).self, when: .preview) { FakeStore() }
        }
        let feed = SpecModule(name: "FeedService", dependencies: ["Preview"], requirements: [databaseKey]) { _ in }
        await #expect(throws: ModuleError.unmetRequirement(module: "FeedService", requirement: databaseKey)) {
            try await container.install([module, feed])
        }
    }

    @Test("Two modules registering one key throw duplicateRegistration, naming both modules and sites")
    func duplicateInOneInstall() async {
        let container = Container()
        await #expect {
            try await container.install([DatabaseModule(), FakeDatabaseModule()])
        } throws: { error in
            guard let error = error as? ModuleError, error.code == .duplicateRegistration else { return false }
            let description = error.description
            return error == .duplicateRegistration(databaseKey, module: "FakeStore", earlierModule: "DataStore")
                && error.site?.fileID == "WeftTests/ModuleContractTests.swift"
                && error.earlierSite?.fileID == "WeftTests/ModuleContractTests.swift"
                && error.site != error.earlierSite
                && description.hasPrefix("Modules DataStore and FakeStore both register DataStore (DataStore at ")
                && description.contains("list DataStore in the `replaces` of FakeStore")
        }
        #expect(container.resolve((any DataStore).self) == nil)
    }

    @Test("A module registering a key an earlier install's module registered throws duplicateRegistration")
    func duplicateAcrossInstalls() async throws {
        let container = Container()
        try await container.install([DatabaseModule()])
        await #expect(
            throws: ModuleError.duplicateRegistration(databaseKey, module: "FakeStore", earlierModule: "DataStore")
        ) {
            try await container.install([FakeDatabaseModule()])
        }
        #expect(container.resolve((any DataStore).self)?.label == "real")
        // A child container's module may register the key again: duplicates are per container.
        try await container.createScope().install([FakeDatabaseModule()])
    }

    @Test("`replaces` allows the later module to register the earlier's key; it is ordered after it")
    func replaces() async throws {
        let replacing = SpecModule(name: "Mock", replaces: ["DataStore"]) { c in
            c.register((any DataStore).self) { FakeStore() }
        }
        let container = Container()
        // Listed first, configured after DataStore.
        #expect(try await container.install([replacing, DatabaseModule()]) == ["DataStore", "Mock"])
        #expect(container.resolve((any DataStore).self)?.label == "fake")
        #expect(container.state.withLock { $0.provenance[databaseKey]?.module } == "Mock")

        let later = Container()
        try await later.install([DatabaseModule()])
        try await later.install([replacing])
        #expect(later.resolve((any DataStore).self)?.label == "fake")
    }

    @Test("One module registering a key twice, or register outside modules, replaces as ever")
    func sameModuleTwice() async throws {
        let container = Container()
        let twice = SpecModule(name: "Twice") { c in
            c.register(Service.self) { Service(id: 1) }
            c.register(Service.self) { Service(id: 2) }
        }
        try await container.install([twice])
        #expect(container.resolve(Service.self)?.id == 2)
        container.register(Service.self) { Service(id: 3) }
        // The key is no module's now: another module may register it.
        try await container.install([SpecModule(name: "Other") { c in c.register(Service.self) { Service(id: 4) } }])
        #expect(container.resolve(Service.self)?.id == 4)
    }

    @Test("A fake takes a module's place under its name; its own requirements are checked")
    func fakes() async throws {
        let modules: [any Module] = [FeedModule(), DatabaseModule()]
        let container = Container()
        let names = try await container.install(try modules.replacing("DataStore", with: FakeDatabaseModule()))
        #expect(names == ["DataStore", "FeedService"])
        #expect(try container.require(FeedService.self).database.label == "fake")
        #expect(container.state.withLock { $0.provenance[databaseKey]?.label } == "FakeStore (in place of DataStore)")

        let byType = Container()
        try await byType.install(try modules.replacing(DatabaseModule.self, with: FakeDatabaseModule()))
        #expect(try byType.require(FeedService.self).database.label == "fake")

        let needy = SpecModule(name: "FakeNetwork", requirements: [ServiceKey(Service.self)]) { _ in }
        let network = SpecModule(name: "Network") { _ in }
        await #expect(
            throws: ModuleError.unmetRequirement(
                module: "FakeNetwork (in place of Network)", requirement: ServiceKey(Service.self))
        ) {
            try await Container().install(try [network].replacing("Network", with: needy))
        }
    }

    @Test("A fake for a module not in the list is a thrown unknownModule, before anything installs")
    func unknownModule() async {
        let container = Container()
        let modules: [any Module] = [DatabaseModule()]
        #expect(throws: ModuleError.unknownModule("Network")) {
            try modules.replacing("Network", with: FakeDatabaseModule())
        }
        let byType = #expect(throws: ModuleError.self) {
            try modules.replacing(FeedModule.self, with: FakeDatabaseModule())
        }
        #expect(byType == .unknownModule("FeedModule"))
        #expect(
            byType?.description
                == "No module named FeedModule to replace: it is not in the list of modules. "
                + "Add it, or fix the name given to `replacing(_:with:)`.")
        #expect(container.resolve((any DataStore).self) == nil)
    }

    @Test("Duplicates are checked before requirements")
    func duplicatesFirst() async {
        let a = SpecModule(name: "A", requirements: [ServiceKey(ServiceA.self)]) { c in
            c.register(Service.self) { Service() }
        }
        let b = SpecModule(name: "B") { c in c.register(Service.self) { Service() } }
        await #expect(
            throws: ModuleError.duplicateRegistration(ServiceKey(Service.self), module: "B", earlierModule: "A")
        ) {
            try await Container().install([a, b])
        }
    }

    @Test("A nested install's modules are recorded, and checked by the enclosing install")
    func nested() async throws {
        let inner = SpecModule(name: "Inner") { c in c.register(Service.self) { Service() } }
        let outer = SpecModule(name: "Outer") { c in c.register(Service.self) { Service() } }
        struct Installing: Module {
            let name = "Installing"
            let inner: any Module
            func configure(_ container: Container) async throws { try await container.install([inner]) }
        }
        let container = Container()
        await #expect(throws: ModuleError.self) {
            try await container.install([outer, Installing(inner: inner)])
        }
        #expect(container.resolve(Service.self) == nil)
        try await container.install([Installing(inner: inner)])
        #expect(container.state.withLock { $0.provenance[ServiceKey(Service.self)]?.module } == "Inner")
    }
}

@Suite("Modules in validation and the graph")
struct ModuleValidationTests {
    @Test("validate() reports an installed module's requirement that is no longer registered")
    func unmetAtValidation() async throws {
        let container = Container()
        try await container.install([FeedModule(), DatabaseModule()])
        #expect(await container.validate().isValid)
        container.unregister((any DataStore).self)
        let report = await container.validate()
        let unmet = report.problems.filter { $0.code == .unmetRequirement }
        #expect(unmet == [.unmetRequirement(module: "FeedService", requirement: databaseKey)])
        #expect(unmet.first?.module == "FeedService")
        #expect(
            unmet.first?.description
                == "Module FeedService requires DataStore, which is not registered. Register DataStore or install a module that does (or a fake of it), or drop the requirement."
        )
        #expect(
            ValidationProblem.unmetRequirement(module: "A", requirement: databaseKey)
                != .unmetRequirement(module: "B", requirement: databaseKey))
    }

    @Test("A key registered twice from one place is a warning naming both sites; the graph stays valid")
    func registeredTwice() async throws {
        let container = Container()
        let first = #line + 1
        container.register(Service.self) { Service() }
        let second = #line + 1
        container.register(Service.self) { Service() }
        let report = await container.validate()
        #expect(report.isValid)
        let warning = try #require(report.warnings.first)
        #expect(report.warnings.count == 1)
        #expect(warning.code == .registeredTwice)
        #expect(warning.earlierSite?.line == first && warning.site?.line == second)
        #expect(warning.description.contains("Service is registered twice in one container, at "))
        #expect(warning.description.contains("ModuleContractTests.swift:\(first) and again at "))
        #expect(
            report.description.hasPrefix("valid: 1 service, 0 dependencies\n  warning: Service is registered twice"))

        // The same module twice is a warning too; a module that replaces another's, an override
        // and a registration removed then made again are not.
        let twice = Container()
        try await twice.install([
            SpecModule(name: "Feed") { c in
                c.register(FeedService.self) { _ in FeedService(database: RealStore()) }
                c.register(FeedService.self) { _ in FeedService(database: RealStore()) }
            }
        ])
        #expect(await twice.validate().warnings.map(\.module) == ["Feed"])
        let quiet = Container()
        try await quiet.install([DatabaseModule(), OfflineStoreModule()])
        let override = quiet.override((any DataStore).self) { FakeStore() }
        quiet.register(Service.self) { Service() }
        quiet.unregister(Service.self)
        quiet.register(Service.self) { Service() }
        #expect(await quiet.validate().warnings.isEmpty)
        override.restore()

        // An override in force does not hide a duplicate below it; a key with context
        // registrations is not judged (its module is not known per registration).
        let hidden = Container()
        hidden.register(Service.self) { Service() }
        hidden.register(Service.self) { Service() }
        let over = hidden.override(Service.self) { Service() }
        #expect(await hidden.validate().warnings.map(\.code) == [.registeredTwice])
        over.restore()
        let contextual = Container()
        try await contextual.install([DatabaseModule()])
        contextual.register((any DataStore).self, when: .test) { FakeStore() }
        contextual.register((any DataStore).self) { RealStore() }
        #expect(await contextual.validate().warnings.isEmpty)
    }

    @Test("Problems carry the module of their service, shown in descriptions")
    func problemModule() async throws {
        let container = Container()
        try await container.install([
            SpecModule(name: "FeedModule") { c in
                c.register(FeedService.self) { resolver in
                    FeedService(database: try resolver.resolve((any DataStore).self))
                }
            }
        ])
        let report = await container.validate()
        let problem = try #require(report.problems.first)
        #expect(problem.code == .missingDependency)
        #expect(problem.module == "FeedModule")
        #expect(problem.description.contains("by module FeedModule) needs DataStore, which is not registered."))
        #expect(problem.description.contains("Declare DataStore in the `requirements` of module FeedModule"))
        #expect(problem == .missingDependency(service: ServiceKey(FeedService.self), missing: databaseKey))
    }

    @Test("The graph's nodes carry modules; the module graph has an edge per module dependency")
    func moduleGraph() async throws {
        let container = Container()
        container.register(Service.self) { Service() }
        try await container.install([FeedModule(), DatabaseModule()])
        let graph = await container.graph()
        #expect(graph.nodes.first { $0.key == ServiceKey(FeedService.self) }?.module == "FeedService")
        #expect(graph.nodes.first { $0.key == ServiceKey(Service.self) }?.module == nil)
        let modules = graph.modules
        #expect(modules.modules == ["DataStore", "FeedService"])
        #expect(modules.edges == [ModuleGraph.Edge(from: "FeedService", to: "DataStore")])
        #expect(
            modules.dot()
                == """
                digraph Modules {
                  rankdir=LR;
                  node [shape=box, fontname="Helvetica"];
                  "DataStore";
                  "FeedService";
                  "FeedService" -> "DataStore";
                }

                """)
        #expect(
            modules.mermaid()
                == """
                flowchart LR
                  m0["DataStore"]
                  m1["FeedService"]
                  m1 --> m0

                """)
    }

    @Test("json() lists nodes and edges, sorted, with module and site")
    func json() {
        let graph = DependencyGraph(
            nodes: [
                .init(key: ServiceKey(ServiceB.self), lifetime: .transient),
                .init(
                    key: ServiceKey(ServiceA.self), lifetime: .singleton,
                    site: RegistrationSite(fileID: "App/A.swift", line: 3), module: "Core \"1\""),
            ],
            edges: [.init(from: ServiceKey(ServiceA.self), to: ServiceKey(ServiceB.self))])
        #expect(
            graph.json()
                == """
                {
                  "version": 1,
                  "nodes": [
                    {"key": "ServiceA", "lifetime": "singleton", "module": "Core \\"1\\"", "site": "App/A.swift:3"},
                    {"key": "ServiceB", "lifetime": "transient", "module": null, "site": null}
                  ],
                  "edges": [
                    {"from": "ServiceA", "to": "ServiceB"}
                  ]
                }

                """)
        #expect(
            DependencyGraph(nodes: [], edges: []).json()
                == "{\n  \"version\": 1,\n  \"nodes\": [],\n  \"edges\": []\n}\n")
    }
}

@Suite("Contributions")
struct ContributionTests {
    @Test("Contributions come back one per contribution, in module order, made fresh each time")
    func order() async throws {
        let made = Counter()
        let container = Container()
        let first = SpecModule(name: "First") { c in
            c.contribute((any HealthProbe).self) { _ in
                made.increment()
                return NamedProbe(name: "first")
            }
        }
        let second = SpecModule(name: "Second", dependencies: ["First"]) { c in
            c.contribute((any HealthProbe).self) { _ in NamedProbe(name: "second") }
            c.contribute((any HealthProbe).self) { _ in NamedProbe(name: "third") }
        }
        #expect(try container.contributions((any HealthProbe).self).isEmpty)
        try await container.install([second, first])
        #expect(try container.contributions((any HealthProbe).self).map(\.name) == ["first", "second", "third"])
        #expect(try await container.contributionsAsync((any HealthProbe).self).count == 3)
        #expect(made.value == 2)
        // Two modules contributing to one collection is no duplicate.
        #expect(
            container.state.withLock { $0.provenance.values.map(\.module).sorted() } == ["First", "Second", "Second"])
    }

    @Test("A factory reads contributions through its resolver; a scope sees its parent's, then its own")
    func throughResolver() async throws {
        let container = Container()
        container.contribute(String.self) { _ in "parent" }
        let scope = container.createScope()
        scope.contribute(String.self) { _ in "scope" }
        scope.register([String].self) { resolver in try resolver.contributions(String.self) }
        #expect(try scope.require([String].self) == ["parent", "scope"])
        #expect(try container.contributions(String.self) == ["parent"])
        scope.register(Int.self) { resolver async throws in try await resolver.contributions(String.self).count }
        #expect(try await scope.resolveAsync(Int.self) == 2)
    }

    @Test("A parent's and a scope's contributions interleave in the order they were made, in validation's copy too")
    func interleaved() async throws {
        let container = Container()
        container.contribute(String.self) { _ in "parent 1" }
        let scope = container.createScope()
        scope.contribute(String.self) { _ in "scope" }
        container.contribute(String.self) { _ in "parent 2" }
        #expect(try scope.contributions(String.self) == ["parent 1", "scope", "parent 2"])
        let seen = Locked<[String]>([])
        scope.register(Int.self) { resolver in
            let values = try resolver.contributions(String.self)
            seen.withLock { $0 = values }
            return values.count
        }
        #expect(await scope.validate().isValid)
        #expect(seen.withLock { $0 } == ["parent 1", "scope", "parent 2"])
        container.removeAll()
        #expect(try scope.contributions(String.self) == ["scope"])
    }

    @Test("An async contribution needs the async form; a failing one throws")
    func asyncAndFailing() async throws {
        let container = Container()
        container.contribute(Int.self) { _ async in 1 }
        #expect(throws: ResolutionError.self) { try container.contributions(Int.self) }
        #expect(try await container.contributionsAsync(Int.self) == [1])
        container.contribute(Int.self) { _ throws -> Int in throw Boom() }
        await #expect(throws: ResolutionError.self) { try await container.contributionsAsync(Int.self) }
    }

    @Test("validate() resolves every contribution and counts them per collection")
    func validation() async throws {
        let container = Container()
        container.contribute(String.self) { _ in "a" }
        container.contribute(String.self) { _ in "b" }
        container.contribute(Int.self) { resolver in try resolver.resolve(Int.self, name: "missing") }
        let report = await container.validate()
        #expect(report.contributions == [ServiceKey(String.self): 2, ServiceKey(Int.self): 1])
        #expect(report.problems.map(\.code) == [.missingDependency])
    }

    @Test("Contributions inside a failing install are not applied")
    func allOrNothing() async throws {
        let container = Container()
        let contributing = SpecModule(name: "C", requirements: [databaseKey]) { c in
            c.contribute(String.self) { _ in "c" }
        }
        await #expect(throws: ModuleError.self) { try await container.install([contributing]) }
        #expect(try container.contributions(String.self).isEmpty)
    }
}
