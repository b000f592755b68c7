/// A value guarded by a lock: the one way the targets of this package synchronize shared mutable
/// state (`Weft`, `WeftInitializer`, `WeftTesting` and the app all use this type).
///
/// Like the standard library's `Mutex`, the state goes in and values come out as `sending`:
/// a non-`Sendable` value can cross into the lock, or out of it, only if nothing else keeps it.
///
/// One allocation holds both the state and the mutex (``LockedStorage``, a `ManagedBuffer`,
/// whose header and element have stable addresses): a container, a scope or a contended
/// creation pays for one object, not three. The platform's lock is ``PlatformMutex``.
// @unchecked: `storage`'s state is only read or written between `PlatformMutex.lock` and `unlock`.
package struct Locked<State>: @unchecked Sendable {
    /// `package` only so that ``withLock(_:)`` inlines into the other targets: use `withLock`.
    package let storage: LockedStorage<State>

    /// Inlinable, as ``withLock(_:)`` is, so that it is specialized for `State` where it is
    /// used rather than moving the state in through its value witnesses.
    @inlinable
    package init(_ state: consuming sending State) {
        storage = LockedStorage.make(state)
    }

    /// Runs `body` with the state, holding the lock; the lock is released however `body` exits.
    @inlinable @inline(__always)
    package func withLock<Result, E: Error>(_ body: (inout sending State) throws(E) -> sending Result) throws(E)
        -> sending Result
    {
        let (state, mutex) = storage.pointers
        PlatformMutex.lock(mutex)
        defer { PlatformMutex.unlock(mutex) }
        return try body(&state.pointee)
    }
}

/// The state (the header) and the mutex (the one element) of a ``Locked``, in one allocation.
/// Accessed through pointers: the lock already makes access exclusive, and a class's `var`
/// would add a dynamic exclusivity check to every access.
///
/// Contract: the pointers that ``pointers`` hands out are valid while this object lives (the
/// caller's reference keeps it alive), and the state is touched only with the mutex held.
package final class LockedStorage<State>: ManagedBuffer<State, PlatformMutex.Primitive> {
    @inlinable
    package static func make(_ state: consuming sending State) -> LockedStorage {
        var pending = Optional(state)
        let buffer = create(minimumCapacity: 1) { _ in pending.take()! }
        let storage = unsafeDowncast(buffer, to: LockedStorage.self)
        storage.withUnsafeMutablePointerToElements { PlatformMutex.initialize($0) }
        return storage
    }

    /// The state and the mutex.
    @inlinable @inline(__always)
    package var pointers: (state: UnsafeMutablePointer<State>, mutex: UnsafeMutablePointer<PlatformMutex.Primitive>) {
        withUnsafeMutablePointers { ($0, $1) }
    }

    /// The header (the state) is a stored property, released by `ManagedBuffer` itself; the
    /// element is this class's to tear down.
    deinit {
        withUnsafeMutablePointerToElements { PlatformMutex.destroy($0) }
    }
}
