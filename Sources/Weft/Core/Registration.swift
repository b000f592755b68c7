/// A registered factory and the lifetime of what it makes.
///
/// A class, though immutable: lookups copy it out of the lock on every uncached resolve, and
/// one retain is cheaper than copying a key, a name and a closure context.
@usableFromInline
final class Registration: Sendable {
    @usableFromInline
    enum Factory: Sendable {
        case sync(@Sendable (Resolver) throws -> any Sendable)
        case async(@Sendable (Resolver) async throws -> any Sendable)
    }

    @usableFromInline let key: ServiceKey
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let factory: Factory

    @inlinable
    init(key: ServiceKey, lifetime: Lifetime, factory: Factory) {
        self.key = key
        self.lifetime = lifetime
        self.factory = factory
    }

    var isAsync: Bool {
        if case .async = factory { return true }
        return false
    }
}

/// A created value the container keeps.
enum StoredInstance {
    case strong(any Sendable)
    case weak(WeakReference)

    /// The value, unless it was held weakly and has been released.
    @inline(__always)
    var value: Any? {
        switch self {
        case .strong(let value): value
        case .weak(let reference): reference.object
        }
    }

    /// The value as stored, unless it was held weakly and has been released.
    var sendableValue: (any Sendable)? {
        switch self {
        case .strong(let value): value
        case .weak(let reference): reference.value
        }
    }

    /// Keeps `value` weakly if it is a class instance; a value type cannot be held weakly.
    static func weakly(_ value: any Sendable) -> StoredInstance? {
        guard type(of: value) is AnyClass else { return nil }
        return .weak(WeakReference(value))
    }
}

/// A weak reference, only ever touched under its container's lock.
final class WeakReference {
    private(set) weak var object: AnyObject?
    init(_ value: any Sendable) { self.object = value as AnyObject }

    /// The object, as the `Sendable` value it was stored as.
    var value: (any Sendable)? {
        // `object` was made from a Sendable value in `init`; only its static type was lost.
        object.map { unsafeBitCast($0, to: (AnyObject & Sendable).self) }
    }
}
