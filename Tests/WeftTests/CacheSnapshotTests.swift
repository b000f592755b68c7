import Logging
import Testing
import WeftPrimitives

@testable import Weft

/// Cached values are read without the lock from a published snapshot: these tests pin down
/// that the snapshot never serves a value the container has forgotten, and never outlives it.
@Suite("Lock-free cached reads")
struct CacheSnapshotTests {
    /// Resolves `type` until the container serves it from its published snapshot.
    private func publish<T: Sendable>(_ type: T.Type, in container: Container) throws -> T {
        for _ in 0..<64 where !container.state.withLock({ $0.cache.publishes(ServiceKey(type)) }) {
            _ = try container.require(type)
        }
        #expect(container.state.withLock { $0.cache.publishes(ServiceKey(type)) })
        return try container.require(type)
    }

    @Test("The published words are the container's first stored property, read where the container keeps them")
    func publishedWordsLayout() throws {
        let parent = Container()
        let child = Container(parent: parent)
        // `SnapshotSlot` reads the words right after the object header; the field declared
        // after them, `parent`, must come right after them.
        let words = _getUnsafePointerToStoredProperties(child)
        let next = (words + MemoryLayout<PublishedWords>.stride).load(as: UInt.self)
        #expect(next == UInt(bitPattern: Unmanaged.passUnretained(parent).toOpaque()))
        // `SnapshotSlot.Word` finds the words by position: the cache word first, then the
        // transient table's, then the `.graph` flag.
        let word = MemoryLayout<UInt>.stride
        #expect(MemoryLayout<PublishedWords>.offset(of: \.cache) == 0)
        #expect(MemoryLayout<PublishedWords>.offset(of: \.transients) == word)
        #expect(MemoryLayout<PublishedWords>.offset(of: \.graphs) == 2 * word)
        #expect(MemoryLayout<PublishedWords>.size == 3 * word)
        #expect(words.load(as: UInt.self) == 0)
        child.register(Service.self, lifetime: .singleton) { Service(id: 1) }
        let made = try child.require(Service.self)
        // Caching the value published a table there, and the read through it finds the value.
        #expect(words.load(as: UInt.self) != 0)
        #expect(child.publishedObject(ServiceKey(Service.self), ofExactly: Service.self).object === made)
        // Not published: said so, so that the resolve goes straight to the lock.
        #expect(child.publishedObject(ServiceKey(Counter.self), ofExactly: Counter.self).isPublished == false)
    }

    @Test("A singleton served from the snapshot is the one the container created")
    func servesCachedValue() throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self, lifetime: .singleton) {
            made.increment()
            return Service(id: 7)
        }
        let first = try container.require(Service.self)
        let published = try publish(Service.self, in: container)
        #expect(published === first && published.id == 7 && made.value == 1)
    }

    @Test("Class, struct, protocol-typed and superclass-typed singletons come back from the snapshot as registered")
    func valueKinds() async throws {
        let container = Container()
        let service = Service(id: 5)
        container.register(Service.self, instance: service)
        container.register(ServiceA.self, lifetime: .singleton) { ServiceA() }
        container.register((any Logger).self, lifetime: .singleton) { NamedLogger(name: "class") }
        container.register(Base.self, lifetime: .singleton) { Derived() }
        #expect(try publish(Service.self, in: container) === service)
        _ = try publish(ServiceA.self, in: container)
        #expect(try publish((any Logger).self, in: container).name == "class")
        #expect(try publish(Base.self, in: container) is Derived)
        // The same through the async entry point.
        #expect(try await container.resolveAsync(Service.self) === service)
        #expect(try await container.resolveAsync((any Logger).self).name == "class")
        #expect(try await container.resolveAsync(Base.self) is Derived)
        // A cached class instance under its own key only: not under another type or a name.
        #expect(container.resolve(Derived.self) == nil)
        #expect(container.resolve(Service.self, name: "other") == nil)
    }

    @Test("A singleton and a weak service registered as a class-bound protocol are served as class instances")
    func classBoundExistentials() throws {
        let container = Container()
        container.register((any ClassBound).self, lifetime: .singleton) { Bound() }
        container.register((any ClassBound).self, name: "weak", lifetime: .weak) { Bound() }
        let singleton = try publish((any ClassBound).self, in: container)
        // Kept as a plain reference in the table, found by its class: the fast path of a
        // resolve of `Bound`; a resolve of `any ClassBound` casts it.
        let key = ServiceKey((any ClassBound).self)
        let isa = { (type: AnyClass) in UInt(bitPattern: ObjectIdentifier(type)) }
        #expect(container.snapshot.object(for: key, ofExactly: isa(Bound.self)).object === singleton)
        // Another class: not served from the slot, but the slot is there for the cast.
        let other = container.snapshot.object(for: key, ofExactly: isa(Service.self))
        #expect(other.object == nil && other.isPublished)
        let held = try container.require((any ClassBound).self, name: "weak")
        #expect(try container.require((any ClassBound).self, name: "weak") === held)
    }

    @Test("A scope keeps its parent's singleton and serves it from its own snapshot: still one instance")
    func scopeReadsParentSnapshot() throws {
        let parent = Container()
        parent.register(Service.self, lifetime: .singleton) { Service(id: 9) }
        let scope = parent.createScope()
        let first = try scope.require(Service.self)
        for _ in 0..<64 { #expect(try scope.require(Service.self) === first) }
        #expect(parent.state.withLock { $0.cache.publishes(ServiceKey(Service.self)) })
        #expect(scope.state.withLock { $0.cache.publishes(ServiceKey(Service.self)) })
        #expect(scope.state.withLock { $0.cache.disposables().isEmpty })  // kept, not created: never disposed here
        #expect(try parent.require(Service.self) === first)
    }

    @Test("Registering again after the value was published serves the new registration")
    func reregisterInvalidates() throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service(id: 1) }
        #expect(try publish(Service.self, in: container).id == 1)
        container.register(Service.self, lifetime: .singleton) { Service(id: 2) }
        #expect(try container.require(Service.self).id == 2)
        container.register(Service.self, instance: Service(id: 3))
        #expect(try container.require(Service.self).id == 3)
        container.register(Service.self) { Service(id: 4) }
        #expect(try container.require(Service.self).id == 4)
    }

    @Test("update replaces a published singleton for every later resolve")
    func updateInvalidates() async throws {
        let (before, after) = try await Container.withIsolatedShared { () async throws -> (Int, Int) in
            await Container.bootstrap { $0.register(Service.self, lifetime: .singleton) { Service(id: 1) } }
            let before = try publish(Service.self, in: Container.shared).id
            await Container.update { $0.register(Service.self, lifetime: .singleton) { Service(id: 2) } }
            return (before, try Container.shared.require(Service.self).id)
        }
        #expect(before == 1 && after == 2)
    }

    @Test("Many named singletons of one type and many types each get their own value")
    func manyKeys() throws {
        let container = Container()
        for index in 0..<300 {
            container.register(Service.self, name: "s\(index)", lifetime: .singleton) { Service(id: index) }
        }
        container.register(Repository<User>.self, lifetime: .singleton) { Repository(label: "users") }
        container.register(Repository<Product>.self, lifetime: .singleton) { Repository(label: "products") }
        // Several rounds: values move from the locked path into ever larger snapshots.
        for _ in 0..<4 {
            for index in 0..<300 { #expect(try container.require(Service.self, name: "s\(index)").id == index) }
            #expect(try container.require(Repository<User>.self).label == "users")
            #expect(try container.require(Repository<Product>.self).label == "products")
        }
        #expect(container.resolve(Service.self, name: "s300") == nil)
    }

    @Test("Cached values are released with their container, snapshots included")
    func releasedWithContainer() throws {
        weak var held: Service?
        do {
            let container = Container()
            container.register(Service.self, lifetime: .singleton) { Service() }
            held = try publish(Service.self, in: container)
            container.register(Service.self, lifetime: .singleton) { Service() }  // retires a snapshot
            _ = try publish(Service.self, in: container)
        }
        #expect(held == nil)
    }

    @Test("A weak value is never pinned by a snapshot")
    func weakNotPinned() throws {
        let container = Container()
        container.register(Service.self, lifetime: .weak) { Service() }
        weak var released: Service?
        do {
            let value = try container.require(Service.self)
            for _ in 0..<64 { #expect(try container.require(Service.self) === value) }
            released = value
        }
        #expect(released == nil)
    }

    @Test("Replacing a published value over and over keeps a bounded number of snapshots")
    func boundedRetirement() throws {
        let container = Container()
        for round in 0..<(CachedValues.retirementLimit * 3) {
            container.register(Service.self, lifetime: .singleton) { Service(id: round) }
            for _ in 0..<8 { #expect(try container.require(Service.self).id == round) }
        }
        #expect(container.state.withLock { $0.cache.retiredCount } <= CachedValues.retirementLimit)
    }

    @Test("Replacing a published instance registration over and over stops publishing at the limit")
    func boundedInstanceReplacement() throws {
        // Each replacement republishes at once (the new instance is cached from the start),
        // so this reaches the limit through invalidations alone.
        let container = Container()
        let warnings = Log()
        container.diagnostics.logger = CapturingLogHandler.logger(warnings, level: .warning)
        container.register(Service.self, instance: Service(id: -1))
        _ = try publish(Service.self, in: container)
        for round in 0..<(CachedValues.retirementLimit * 3) {
            container.register(Service.self, instance: Service(id: round))
            #expect(try container.require(Service.self).id == round)
        }
        #expect(container.state.withLock { $0.cache.retiredCount } == CachedValues.retirementLimit)
        #expect(!container.state.withLock { $0.cache.publishes(ServiceKey(Service.self)) })
        // Said once, through diagnostics, when lock-free reads stop.
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("now reads them under its lock") == true)
    }

    @Test("Readers racing re-registrations only ever see a registered value")
    func racingReaders() async throws {
        let container = Container()
        container.register(Service.self, lifetime: .singleton) { Service(id: 0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 {
                        let id = try container.require(Service.self).id
                        #expect((0...50).contains(id))
                    }
                }
            }
            group.addTask {
                for round in 1...50 { container.register(Service.self, lifetime: .singleton) { Service(id: round) } }
            }
            try await group.waitForAll()
        }
        #expect(try container.require(Service.self).id == 50)
    }
}

private protocol ClassBound: AnyObject, Sendable {}
private final class Bound: ClassBound {}

private final class NamedLogger: Logger {
    let name: String
    init(name: String) { self.name = name }
}

// @unchecked: no stored state at all; a non-final class cannot be checked `Sendable`.
private class Base: @unchecked Sendable {}
private final class Derived: Base, @unchecked Sendable {
    // MARK: Transients without the lock

    /// Resolves `type` until the container finds its transient registration lock-free.
    private func publishTransient<T: Sendable>(_ type: T.Type, name: String? = nil, in container: Container) throws {
        for _ in 0..<64 where !container.state.withLock({ $0.cache.publishesTransient(ServiceKey(type, name: name)) }) {
            _ = try container.require(type, name: name)
        }
        #expect(container.state.withLock { $0.cache.publishesTransient(ServiceKey(type, name: name)) })
    }

    @Test("A published transient still makes a new value on every resolve")
    func transientStaysTransient() throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self) {
            made.increment()
            return Service()
        }
        try publishTransient(Service.self, in: container)
        let before = made.value
        let (first, second) = (try container.require(Service.self), try container.require(Service.self))
        #expect(first !== second && made.value == before + 2)
    }

    @Test("Registering, overriding and unregistering a published transient take effect at once")
    func transientReplaced() throws {
        let container = Container()
        container.register(Service.self) { Service(id: 1) }
        try publishTransient(Service.self, in: container)
        container.register(Service.self) { Service(id: 2) }
        #expect(try container.require(Service.self).id == 2)
        let override = container.override(Service.self) { Service(id: 3) }
        #expect(try container.require(Service.self).id == 3)
        override.restore()
        #expect(try container.require(Service.self).id == 2)
        try publishTransient(Service.self, in: container)
        container.unregister(Service.self)
        #expect(throws: ResolutionError.self) { try container.require(Service.self) }
    }

    @Test("A scope's published transient of its parent follows the parent's re-registration")
    func inheritedTransientReplaced() throws {
        let root = Container()
        root.register(Service.self) { Service(id: 1) }
        let scope = root.createScope().createScope()
        try publishTransient(Service.self, in: scope)
        root.register(Service.self) { Service(id: 2) }
        #expect(try scope.require(Service.self).id == 2)
    }

    @Test("A published transient is not run after shutdown")
    func transientAfterShutdown() async throws {
        let container = Container()
        container.register(Service.self) { Service() }
        try publishTransient(Service.self, in: container)
        try await container.shutdown()
        #expect(throws: ResolutionError.self) { try container.require(Service.self) }
    }

    @Test("Caching values all day never copies the transient registrations again")
    func transientsPublishedApart() throws {
        let container = Container()
        for index in 0..<100 { container.register(Service.self, name: "t\(index)") { Service(id: index) } }
        try publishTransient(Service.self, name: "t0", in: container)
        for index in 0..<40 {
            container.register(ServiceA.self, name: "s\(index)", lifetime: .singleton) { ServiceA() }
            for _ in 0..<64 { _ = try container.require(ServiceA.self, name: "s\(index)") }
        }
        let (published, transients) = container.state.withLock {
            ($0.cache.publishes(ServiceKey(ServiceA.self, name: "s39")), $0.cache.retiredTransientCount)
        }
        #expect(published, "each singleton was published as it was cached")
        #expect(transients <= 1, "the transient table was not republished, beyond its first publications")
    }

    @Test("While resolutions are timed, transients are looked up under the lock, where the trace happens")
    func timedTransientsUseTheLock() throws {
        let container = Container()
        container.register(Service.self) { Service() }
        try publishTransient(Service.self, in: container)
        let traced = Counter()
        container.diagnostics.onResolution = { _ in traced.increment() }
        _ = try container.require(Service.self)
        #expect(traced.value == 1)
        #expect(!container.state.withLock { $0.cache.publishesTransient(ServiceKey(Service.self)) })
    }
}
