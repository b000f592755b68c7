#if canImport(Darwin)
    package import Darwin
#elseif os(Windows)
    package import WinSDK
#elseif canImport(Android)
    package import Android
#elseif canImport(Glibc)
    package import Glibc
#elseif canImport(Musl)
    package import Musl
#elseif canImport(WASILibc)
    package import WASILibc
    #if canImport(wasi_pthread)
        package import wasi_pthread
    #endif
#else
    #error("WeftPrimitives: no C library known for this platform; add its branch here and in ThreadLocalSlot.swift")
#endif

/// The platform's mutual-exclusion lock, operated in place: a `pthread_mutex_t` on Darwin,
/// Linux (Glibc and musl), Android and multi-threaded WASI; an `SRWLOCK` on Windows; nothing on
/// single-threaded WASI, where no other thread can hold it. ``Locked`` is its one user.
///
/// Contract: ``initialize(_:)`` once before any other call, ``lock(_:)`` and ``unlock(_:)`` in
/// pairs on one thread, ``destroy(_:)`` once, unlocked, after the last. Every pthread result is
/// checked: a failure means memory was corrupted or the contract broken, and traps with the
/// error code rather than running unguarded.
///
/// A pthread mutex rather than the standard library's `Mutex`: `Mutex` needs macOS 15 and
/// iOS 18 (Weft supports 14 and 17), and on Linux ThreadSanitizer cannot see its futex, so it
/// reports the accesses it guards as races. ThreadSanitizer does understand pthread mutexes.
package enum PlatformMutex {
    #if os(Windows)
        package typealias Primitive = SRWLOCK
    #elseif os(WASI) && !_runtime(_multithreaded)
        package typealias Primitive = UInt8
    #else
        package typealias Primitive = pthread_mutex_t
    #endif

    /// Makes the memory at `mutex` an unlocked mutex.
    package static func initialize(_ mutex: UnsafeMutablePointer<Primitive>) {
        #if os(Windows)
            InitializeSRWLock(mutex)
        #elseif os(WASI) && !_runtime(_multithreaded)
            mutex.initialize(to: 0)
        #else
            mutex.initialize(to: Primitive())
            var attributes = pthread_mutexattr_t()
            check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
            #if DEBUG && !os(WASI)
                // An error-checking mutex in debug builds, as SwiftNIO's: taking it again on the
                // thread that holds it (a factory or a hook re-entering a lock), or releasing it
                // from another thread, fails with an error code, and traps naming the call,
                // instead of deadlocking or running unguarded.
                check(
                    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)),
                    "pthread_mutexattr_settype")
            #elseif canImport(Glibc) && !canImport(Android)
                // Spin briefly before sleeping: the critical sections are a dictionary lookup or
                // two, so a contended lock is usually free again within nanoseconds (as the
                // standard library's `Mutex` does on Linux).
                check(
                    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP)),
                    "pthread_mutexattr_settype")
            #endif
            check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
            check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
        #endif
    }

    /// Waits for the mutex and takes it.
    @inlinable @inline(__always)
    package static func lock(_ mutex: UnsafeMutablePointer<Primitive>) {
        #if os(Windows)
            AcquireSRWLockExclusive(mutex)
        #elseif os(WASI) && !_runtime(_multithreaded)
        #else
            let result = pthread_mutex_lock(mutex)
            if _slowPath(result != 0) { failed("pthread_mutex_lock", result) }
        #endif
    }

    /// Releases the mutex, which this thread holds.
    @inlinable @inline(__always)
    package static func unlock(_ mutex: UnsafeMutablePointer<Primitive>) {
        #if os(Windows)
            ReleaseSRWLockExclusive(mutex)
        #elseif os(WASI) && !_runtime(_multithreaded)
        #else
            let result = pthread_mutex_unlock(mutex)
            if _slowPath(result != 0) { failed("pthread_mutex_unlock", result) }
        #endif
    }

    /// Tears down the unlocked mutex at `mutex`, leaving the memory uninitialized.
    package static func destroy(_ mutex: UnsafeMutablePointer<Primitive>) {
        #if !os(Windows) && !(os(WASI) && !_runtime(_multithreaded))
            check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        #endif
        mutex.deinitialize(count: 1)
    }

    /// Traps with the call's name and error code unless `result` is 0: a pthread call that
    /// fails here means corrupted memory or a broken contract, never a user's error.
    static func check(_ result: Int32, _ call: StaticString) {
        if result != 0 { failed(call, result) }
    }

    /// Traps, naming the pthread call that failed and its error code. Out of line, so that the
    /// inlined lock and unlock carry a compare and a call, not the message's construction.
    @inline(never)
    package static func failed(_ call: StaticString, _ result: Int32) -> Never {
        preconditionFailure("\(call) failed with error \(result)")
    }
}
