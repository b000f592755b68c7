import Atomics

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

/// The floor Weft's uncached resolves are measured against: an immutable `[type: factory]`
/// snapshot published through an atomic pointer and read with one acquire load, without
/// retaining it, one hash probe, then the factory call. No lock, no cycle detection, no
/// lifetimes but transient, no scopes, no diagnostics: the least a container can do.
public final class SnapshotFloor: Sendable {
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
        @usableFromInline let factories: [ObjectIdentifier: Entry]
        init(_ factories: [ObjectIdentifier: Factory]) { self.factories = factories.mapValues(Entry.init) }
    }

    @usableFromInline let published: ManagedAtomic<Unmanaged<Snapshot>>

    public init(_ factories: [ObjectIdentifier: Factory]) {
        // Never released: a benchmark's floor lives as long as the process.
        published = ManagedAtomic(Unmanaged.passRetained(Snapshot(factories)))
    }

    /// Inlinable, so that the cast to `T` is specialized in the caller, as Weft's is.
    @inlinable
    public func resolve<T: Sendable>(_ type: T.Type) -> T? {
        published.load(ordering: .acquiring)._withUnsafeGuaranteedRef {
            $0.factories[ObjectIdentifier(type)]?.make(self)
        } as? T
    }
}
