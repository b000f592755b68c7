import Atomics
import Weft

/// The services every contender builds: empty final classes, so the numbers measure the
/// container, not the service.
public final class CachedService: Sendable { public init() {} }

/// Resolved anew on every call.
public final class TransientService: Sendable { public init() {} }

/// The three dependencies of ``GraphRoot``, transient like the root.
public final class GraphDependencyA: Sendable { public init() {} }
public final class GraphDependencyB: Sendable { public init() {} }
public final class GraphDependencyC: Sendable { public init() {} }

/// The root of the 4-object graph: one service with three resolved dependencies.
public final class GraphRoot: Sendable {
    public let a: GraphDependencyA
    public let b: GraphDependencyB
    public let c: GraphDependencyC

    public init(a: GraphDependencyA, b: GraphDependencyB, c: GraphDependencyC) {
        self.a = a
        self.b = b
        self.c = c
    }
}

/// A link of a chain of transients: each resolves the next.
public struct ChainNode: Sendable {
    public let depth: Int
    public init(depth: Int) { self.depth = depth }
}

/// `value`, or a trap naming what a contender failed to resolve: a broken benchmark setup must
/// stop the run rather than time a shortcut.
public func required<T>(_ value: T?, _ what: @autoclosure () -> String = "\(T.self)") -> T {
    guard let value else { preconditionFailure("benchmark setup: could not resolve \(what())") }
    return value
}

/// The floor Weft's resolves are measured against: an immutable `[key: factory]` snapshot
/// published through an atomic pointer and read with one acquire load, without retaining it,
/// one hash probe, then the factory call. No lock, no cycle detection, no lifetimes (a cached
/// value is a factory returning it), no scopes, no diagnostics: the least a container can do.
/// Keyed by type (`ObjectIdentifier`) or, for named registrations, by name.
public final class SnapshotFloor<Key: Hashable & Sendable>: Sendable {
    public typealias Factory = @Sendable (SnapshotFloor) -> any Sendable

    /// A factory as a class: a closure stored as a dictionary's generic value comes back
    /// wrapped in a reabstraction thunk, one allocation per read.
    @usableFromInline
    final class Entry: Sendable {
        @usableFromInline let make: Factory
        init(_ make: @escaping Factory) { self.make = make }
    }

    @usableFromInline
    final class Snapshot: Sendable {
        @usableFromInline let factories: [Key: Entry]
        init(_ factories: [Key: Factory]) { self.factories = factories.mapValues(Entry.init) }
    }

    @usableFromInline let published: ManagedAtomic<Unmanaged<Snapshot>>

    public init(_ factories: [Key: Factory]) {
        // Never released: a benchmark's floor lives as long as the process.
        published = ManagedAtomic(Unmanaged.passRetained(Snapshot(factories)))
    }

    /// Inlinable, so that the cast to `T` is specialized in the caller, as Weft's is.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type, key: Key) -> T? {
        published.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.factories[key]?.make(self) } as? T
    }
}

extension SnapshotFloor where Key == ObjectIdentifier {
    /// The value of the factory registered for `type`.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type) -> T? { resolve(type, key: ObjectIdentifier(type)) }
}

/// The floor with ``weftFixture()``'s services: the cached singleton is a factory returning it.
public func floorFixture() -> SnapshotFloor<ObjectIdentifier> {
    let cached = CachedService()
    return SnapshotFloor([
        ObjectIdentifier(CachedService.self): { _ in cached },
        ObjectIdentifier(TransientService.self): { _ in TransientService() },
        ObjectIdentifier(GraphDependencyA.self): { _ in GraphDependencyA() },
        ObjectIdentifier(GraphDependencyB.self): { _ in GraphDependencyB() },
        ObjectIdentifier(GraphDependencyC.self): { _ in GraphDependencyC() },
        ObjectIdentifier(GraphRoot.self): { floor in
            GraphRoot(
                a: required(floor.resolve(GraphDependencyA.self)),
                b: required(floor.resolve(GraphDependencyB.self)),
                c: required(floor.resolve(GraphDependencyC.self)))
        },
    ])
}

/// A Weft container with every contender's registrations: a cached singleton, a transient and
/// the graph of 4.
public func weftFixture() -> Weft.Container {
    let weft = Weft.Container()
    weft.register(CachedService.self, lifetime: .singleton) { CachedService() }
    weft.register(TransientService.self) { TransientService() }
    weft.register(GraphDependencyA.self) { GraphDependencyA() }
    weft.register(GraphDependencyB.self) { GraphDependencyB() }
    weft.register(GraphDependencyC.self) { GraphDependencyC() }
    weft.register(GraphRoot.self) { r in
        GraphRoot(
            a: try r.resolve(GraphDependencyA.self), b: try r.resolve(GraphDependencyB.self),
            c: try r.resolve(GraphDependencyC.self))
    }
    return weft
}

/// A Weft container holding a chain of `depth` transients, `n0` to `n<depth - 1>`, each
/// resolving the next by name.
public func weftChain(_ depth: Int) -> Weft.Container {
    let container = Weft.Container()
    for level in 0..<depth {
        let next = "n\(level + 1)"
        let isLast = level + 1 == depth
        container.register(ChainNode.self, name: "n\(level)") { r in
            isLast ? ChainNode(depth: 1) : ChainNode(depth: try r.resolve(ChainNode.self, name: next).depth + 1)
        }
    }
    return container
}

/// The floor's chain of `depth` transients, `n0` to `n<depth - 1>`, keyed by name as Weft's.
public func floorChain(_ depth: Int) -> SnapshotFloor<String> {
    var factories: [String: SnapshotFloor<String>.Factory] = [:]
    for level in 0..<depth {
        let next = "n\(level + 1)"
        if level + 1 == depth {
            factories["n\(level)"] = { _ in ChainNode(depth: 1) }
        } else {
            factories["n\(level)"] = { floor in
                ChainNode(depth: required(floor.resolve(ChainNode.self, key: next)).depth + 1)
            }
        }
    }
    return SnapshotFloor(factories)
}
