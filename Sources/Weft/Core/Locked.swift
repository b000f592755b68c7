#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a lock: the only place Weft synchronizes shared mutable state. `package`
/// so that `WeftTesting` shares it (`WeftInitializer` has its own copy: the two libraries are
/// independent).
///
/// A `pthread_mutex_t` on every platform rather than the standard library's `Mutex`: `Mutex`
/// needs macOS 15 (Weft supports 14), and on Linux ThreadSanitizer cannot see its futex, so it
/// reports the accesses it guards as races. ThreadSanitizer does understand pthread mutexes.
///
/// Like the standard library's `Mutex`, the state goes in and values come out as `sending`:
/// a non-`Sendable` value can cross into the lock, or out of it, only if nothing else keeps it.
///
/// One allocation holds both the state and the mutex (``LockedStorage``, a `ManagedBuffer`,
/// whose header and element have stable addresses): a container, a scope or a contended
/// creation pays for one object, not three.
// @unchecked: `storage`'s state is only read or written between `pthread_mutex_lock` and `_unlock`.
package struct Locked<State>: @unchecked Sendable {
    private let storage: LockedStorage<State>

    package init(_ state: consuming sending State) {
        storage = LockedStorage.make(state)
    }

    @inline(__always)
    package func withLock<Result, E: Error>(_ body: (inout sending State) throws(E) -> sending Result) throws(E)
        -> sending Result
    {
        let (state, mutex) = storage.pointers
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}

/// The state (the header) and the mutex (the one element) of a ``Locked``, in one allocation.
/// Accessed through pointers: the lock already makes access exclusive, and a class's `var`
/// would add a dynamic exclusivity check to every access.
final class LockedStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    static func make(_ state: consuming sending State) -> LockedStorage {
        var pending = Optional(state)
        let buffer = create(minimumCapacity: 1) { _ in pending.take()! }
        let storage = unsafeDowncast(buffer, to: LockedStorage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            #if canImport(Glibc)
                // Spin briefly before sleeping: critical sections here are a dictionary lookup, so a
                // contended lock is usually free again within nanoseconds (as stdlib `Mutex` does).
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            #endif
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        }
        return storage
    }

    /// The state and the mutex; valid while this object lives, which the caller's reference
    /// ensures.
    @inline(__always)
    var pointers: (state: UnsafeMutablePointer<State>, mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        withUnsafeMutablePointers { ($0, $1) }
    }

    /// The header (the state) is a stored property, released by `ManagedBuffer` itself; the
    /// element is this class's to tear down.
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
        }
    }
}
