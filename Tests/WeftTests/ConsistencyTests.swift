import Testing
import WeftPrimitives

@testable import Weft

/// One container serves every resolve: values made while configuring, values cached in scopes,
/// and values of replaced registrations never diverge from what a reader of the container sees.
@Suite("One container, one value")
struct ConsistencyTests {
    struct A: Sendable { let id: Int }
    final class B: Sendable {
        let a: A
        init(a: A) { self.a = a }
    }
    final class Value: Sendable {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    @Test("A factory that captured the container handed to update resolves the shared singleton")
    func updateCapturedContainer() async throws {
        try await Container.withIsolatedShared {
            let made = Counter()
            await Container.bootstrap { _ in }
            await Container.update { c in
                c.register(A.self, lifetime: .singleton) {
                    made.increment()
                    return A(id: 1)
                }
                // The seeds' style: the factory resolves through the container it was handed.
                c.register(B.self) { B(a: try c.require(A.self)) }
            }
            let direct = try Container.shared.require(A.self)
            let throughB = try Container.shared.require(B.self).a
            #expect(direct.id == throughB.id)
            #expect(made.value == 1)
        }
    }

    @Test("A factory that captured the container handed to install resolves into that container")
    func installCapturedContainer() async throws {
        struct Feature: Module {
            let name = "Feature"
            let made: Counter
            func configure(_ c: Container) async throws {
                let made = self.made
                c.register(Value.self, lifetime: .singleton) {
                    made.increment()
                    return Value(7)
                }
                c.register(B.self) { B(a: A(id: try c.require(Value.self).id)) }
            }
        }
        let made = Counter()
        let container = Container()
        try await container.install([Feature(made: made)])
        let value = try container.require(Value.self)
        #expect(try container.require(B.self).a.id == value.id)
        _ = try container.require(B.self)
        #expect(made.value == 1)
    }

    @Test("Installing the same module twice configures it once; its name satisfies later dependencies")
    func installTwice() async throws {
        let log = Log()
        let container = Container()
        #expect(try await container.install([TestModule(name: "Core", log: log)]) == ["Core"])
        #expect(try await container.install([TestModule(name: "Core", log: log)]) == [])
        #expect(
            try await container.install([
                TestModule(name: "Core", log: log), TestModule(name: "User", dependencies: ["Core"], log: log),
            ]) == ["User"])
        #expect(log.all == ["Core", "User"])
    }

    @Test("Registering a key again forgets what every scope cached for it")
    func scopeForgetsReplacedRegistration() throws {
        let root = Container()
        let scope = root.createScope()
        let nested = scope.createScope()
        root.register(Value.self, lifetime: .scoped) { Value(1) }
        #expect(try scope.require(Value.self).id == 1)
        #expect(try nested.require(Value.self).id == 1)
        root.register(Value.self, lifetime: .singleton) { Value(2) }
        #expect(try scope.require(Value.self).id == 2)
        #expect(try nested.require(Value.self).id == 2)
        #expect(try root.require(Value.self) === scope.require(Value.self))
    }

    @Test("A scope's own registration keeps its value when an ancestor registers the key again")
    func scopeOwnRegistrationKept() throws {
        let root = Container()
        let scope = root.createScope()
        scope.register(Value.self, lifetime: .scoped) { Value(1) }
        let cached = try scope.require(Value.self)
        root.register(Value.self, lifetime: .singleton) { Value(2) }
        #expect(try scope.require(Value.self) === cached)
    }

    @Test("Values made inside update are the shared container's own: one value for every reader")
    func updateCachesIntoShared() async throws {
        try await Container.withIsolatedShared {
            await Container.bootstrap { $0.register(Value.self, lifetime: .singleton) { Value(1) } }
            let before = try Container.shared.require(Value.self)
            await Container.update { c in
                // Resolving an existing registration inside update neither re-creates it nor
                // caches a second value that a merge would write over the first.
                let inside = c.resolve(Value.self)
                #expect(inside === before)
                c.register(Int.self, instance: 1)
            }
            #expect(try Container.shared.require(Value.self) === before)
            _ = Container.shared.resolve(Int.self)  // an unrelated resolve republishes the snapshot
            #expect(try Container.shared.require(Value.self) === before)
        }
    }

    @Test("A scoped value resolved inside update is the one shared readers get afterwards")
    func updateScopedValue() async throws {
        try await Container.withIsolatedShared {
            // The shared container is a root: a `.scoped` value made there is allowed here, as in a
            // release build (in a debug build it is an error by default).
            Container.shared.diagnostics.validatesScopes = false
            let made = Counter()
            await Container.bootstrap {
                $0.register(Value.self, lifetime: .scoped) {
                    made.increment()
                    return Value(made.value)
                }
            }
            let before = try Container.shared.require(Value.self)
            await Container.update { c in
                _ = c.resolve(Value.self)
                c.register(String.self, instance: "x")
            }
            _ = Container.shared.resolve(String.self)
            #expect(try Container.shared.require(Value.self) === before)
            #expect(made.value == 1)
        }
    }

    @Test("A weak service registered and resolved inside update has one instance while held")
    func updateWeakValue() async throws {
        try await Container.withIsolatedShared {
            let made = Counter()
            await Container.bootstrap { _ in }
            let held = Locked<Value?>(nil)
            await Container.update { c in
                c.register(Value.self, lifetime: .weak) {
                    made.increment()
                    return Value(0)
                }
                held.withLock { $0 = c.resolve(Value.self) }
            }
            let after = try Container.shared.require(Value.self)
            if let inside = held.withLock({ $0 }) { #expect(inside === after) }
            #expect(try Container.shared.require(Value.self) === after)
            #expect(made.value == 1)
        }
    }

    @Test("An existing weak value resolved inside update stays the shared one")
    func updateExistingWeakValue() async throws {
        try await Container.withIsolatedShared {
            let made = Counter()
            await Container.bootstrap {
                $0.register(Value.self, lifetime: .weak) {
                    made.increment()
                    return Value(0)
                }
            }
            let held = Locked<Value?>(nil)
            await Container.update { c in
                held.withLock { $0 = c.resolve(Value.self) }
                c.register(String.self, instance: "x")
            }
            let after = try Container.shared.require(Value.self)
            #expect(after === held.withLock { $0 })
            #expect(made.value == 1)
        }
    }

    @Test("Registrations made in update take effect together when it returns")
    func updateStagesRegistrations() async {
        await Container.withIsolatedShared {
            await Container.bootstrap { $0.register(String.self, instance: "old") }
            await Container.update { c in
                c.register(String.self, instance: "new")
                c.register(Int.self, instance: 1)
                // Until update returns, the container is the one every reader sees.
                #expect(c.resolve(String.self) == "old")
                #expect(c.resolve(Int.self) == nil)
            }
            #expect(Container.shared.resolve(String.self) == "new")
            #expect(Container.shared.resolve(Int.self) == 1)
        }
    }

    @Test("A failing module leaves the container as it was, though its factories captured it")
    func failingInstallStagesNothing() async throws {
        struct Broken: Module {
            let name = "Broken"
            func configure(_ c: Container) async throws {
                c.register(Int.self, instance: 1)
                throw Boom()
            }
        }
        let container = Container()
        await #expect(throws: ModuleError.self) { try await container.install([Broken()]) }
        #expect(container.resolve(Int.self) == nil)
        // The module was not configured, so installing it again tries again.
        await #expect(throws: ModuleError.self) { try await container.install([Broken()]) }
    }
}
