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
/// The state sits behind a pointer rather than in a stored `var`: the lock already makes
/// access exclusive, and a class's `var` would add a dynamic exclusivity check to every access.
// @unchecked: `state` is only read or written between `pthread_mutex_lock` and `_unlock`.
package final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>

    package init(_ state: consuming sending State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
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

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    @inline(__always)
    package func withLock<Result, E: Error>(_ body: (inout sending State) throws(E) -> sending Result) throws(E)
        -> sending Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
