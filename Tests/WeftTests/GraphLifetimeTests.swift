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

    @Test("A container binds graph scopes only when it or an ancestor holds a .graph registration")
    func scopesPerContainer() throws {
        let unrelated = Container()
        let withGraph = Self.diamond(.graph)
        _ = try withGraph.require(A.self)
        #expect(withGraph.usesGraphScopes)
        #expect(!unrelated.usesGraphScopes, "another container's .graph registration costs this one nothing")
        #expect(withGraph.createScope().usesGraphScopes && Container(parent: withGraph).usesGraphScopes)
    }

    @Test("A resolution from a container that sees no .graph registration keeps no .graph value of another")
    func otherContainersGraph() throws {
        struct Pair: Sendable {
            let first: D
            let second: D
        }
        let other = Container()
        other.register(D.self, lifetime: .graph) { D() }
        let plain = Container()
        plain.register(Pair.self) { _ in Pair(first: try other.require(D.self), second: try other.require(D.self)) }
        let pair = try plain.require(Pair.self)
        #expect(pair.first !== pair.second)
        // Resolved from a container that sees it, the same factory's two resolves share one.
        other.register(Pair.self) { resolver in
            Pair(first: try resolver.resolve(D.self), second: try resolver.resolve(D.self))
        }
        let shared = try other.require(Pair.self)
        #expect(shared.first === shared.second)
    }

    @Test("A child made before its parent registers a .graph service shares its value within a resolution")
    func childBeforeRegistration() throws {
        let parent = Self.diamond(.transient)
        let child = Container(parent: parent)
        let grandchild = child.createScope()
        #expect(!grandchild.usesGraphScopes)
        parent.register(D.self, lifetime: .graph) { D() }
        #expect(child.usesGraphScopes && grandchild.usesGraphScopes)
        let a = try grandchild.require(A.self)
        #expect(a.b.d === a.c.d)
        #expect(try grandchild.require(A.self).b.d !== a.b.d)
    }

    @Test("A .graph default lifetime, an override and a context registration each bind scopes below")
    func otherWaysToRegister() throws {
        let byDefault = Container()
        let child = Container(parent: byDefault)
        byDefault.defaultLifetime = .graph
        byDefault.register(D.self) { D() }
        #expect(child.usesGraphScopes)

        let overridden = Self.diamond(.transient)
        let scope = overridden.createScope()
        let override = overridden.override(D.self, lifetime: .graph) { D() }
        #expect(scope.usesGraphScopes)
        let a = try scope.require(A.self)
        #expect(a.b.d === a.c.d)
        override.restore()
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
