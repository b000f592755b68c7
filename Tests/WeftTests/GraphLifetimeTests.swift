import Testing
import WeftPrimitives

@testable import Weft

@Suite("The graph lifetime")
struct GraphLifetimeTests {
    final class D: Sendable {}
    struct B: Sendable { let d: D }
    struct C: Sendable { let d: D }
    struct A: Sendable {
        let b: B
        let c: C
    }

    static func diamond(_ lifetime: Lifetime) -> Container {
        let container = Container()
        container.register(D.self, lifetime: lifetime) { D() }
        container.register(B.self) { resolver in B(d: try resolver.resolve(D.self)) }
        container.register(C.self) { resolver in C(d: try resolver.resolve(D.self)) }
        container.register(A.self) { resolver in A(b: try resolver.resolve(B.self), c: try resolver.resolve(C.self)) }
        return container
    }

    @Test("Swinject ObjectScope.graph: a diamond A → B, A → C, B → D, C → D gets one D per resolve of A")
    func swinjectDiamond() throws {
        let container = Self.diamond(.graph)
        let first = try container.require(A.self)
        let second = try container.require(A.self)
        #expect(first.b.d === first.c.d)
        #expect(second.b.d === second.c.d)
        #expect(first.b.d !== second.b.d)
    }

    @Test("Factory .graph: the diamond resolved with resolveAsync shares D within one resolution")
    func factoryGraphAsync() async throws {
        let container = Self.diamond(.graph)
        container.register(D.self, lifetime: .graph) { (_: Resolver) async throws -> D in D() }
        container.register(B.self) { (resolver: Resolver) async throws -> B in B(d: try await resolver.resolve(D.self))
        }
        container.register(C.self) { (resolver: Resolver) async throws -> C in C(d: try await resolver.resolve(D.self))
        }
        container.register(A.self) { (resolver: Resolver) async throws -> A in
            async let b = resolver.resolve(B.self)
            async let c = resolver.resolve(C.self)
            return A(b: try await b, c: try await c)
        }
        let first = try await container.resolveAsync(A.self)
        let second = try await container.resolveAsync(A.self)
        #expect(first.b.d === first.c.d)
        #expect(first.b.d !== second.b.d)
    }

    @Test("Transient D in the same diamond: two Ds per resolve of A")
    func transientDiamond() throws {
        let a = try Self.diamond(.transient).require(A.self)
        #expect(a.b.d !== a.c.d)
    }

    @Test("A graph service resolved on its own is new each time")
    func graphOutermost() throws {
        let container = Self.diamond(.graph)
        #expect(try container.require(D.self) !== container.require(D.self))
    }

    @Test("Swinject ContainerTests.Circularity: with .graph on both sides, onCreated closes a two-sided loop")
    func swinjectCircularityGraph() throws {
        let container = Container()
        container.register(Parent.self, lifetime: .graph) { Parent() }
            .onCreated { resolver, parent in parent.child = try resolver.resolve(Child.self) }
        container.register(Child.self, lifetime: .graph) { Child() }
            .onCreated { resolver, child in child.parent = try resolver.resolve(Parent.self) }
        let parent = try container.require(Parent.self)
        #expect(parent.child?.parent === parent)
        #expect(try container.require(Parent.self) !== parent)
    }

    @Test("Swinject ContainerTests.Circularity: with singletons on both sides, onCreated closes the loop")
    func swinjectCircularitySingleton() throws {
        let container = Container()
        container.register(Parent.self, lifetime: .singleton) { Parent() }
            .onCreated { resolver, parent in parent.child = try resolver.resolve(Child.self) }
        container.register(Child.self, lifetime: .singleton) { Child() }
            .onCreated { resolver, child in child.parent = try resolver.resolve(Parent.self) }
        let parent = try container.require(Parent.self)
        #expect(parent.child?.parent === parent)
        #expect(try container.require(Child.self) === parent.child)
    }

    @Test("A graph service depending on itself is still a cycle")
    func graphCycle() {
        let container = Container()
        container.register(D.self, lifetime: .graph) { resolver in try resolver.resolve(D.self) }
        #expect(throws: ResolutionError.self) { try container.require(D.self) }
    }
}

/// Two services that hold each other (Swinject's `Circularity.swift`), their references locked.
final class Parent: Sendable {
    private let reference = Locked<Child?>(nil)
    var child: Child? {
        get { reference.withLock { $0 } }
        set { reference.withLock { $0 = newValue } }
    }
}

final class Child: Sendable {
    private let reference = Locked<Weak?>(nil)
    struct Weak: Sendable { weak var parent: Parent? }
    var parent: Parent? {
        get { reference.withLock { $0?.parent } }
        set { reference.withLock { $0 = Weak(parent: newValue) } }
    }
}
