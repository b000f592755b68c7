#if canImport(Darwin)
    import Darwin
#elseif os(Windows)
    import WinSDK
#elseif canImport(Android)
    import Android
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(WASILibc)
    import WASILibc
    #if canImport(wasi_pthread)
        import wasi_pthread
    #endif
#endif

/// One pointer per thread, `nil` until the thread sets it: a pthread key on Darwin, Linux,
/// Android and multi-threaded WASI, a TLS index on Windows, a plain variable on single-threaded
/// WASI. Nothing is destroyed when a thread ends: the owner clears the slot before then.
///
/// Made once per use (a `static let`) and never released: a key is a process-wide resource.
/// Weft's `GraphScope` binds a synchronous resolution's scope to its thread with one. (The
/// resolution frame, read on every resolve, is a C thread-local instead: `CWeftThreadFrame`.)
package final class ThreadLocalSlot: Sendable {
    #if os(Windows)
        private let index: DWORD
    #elseif os(WASI) && !_runtime(_multithreaded)
        // nonisolated(unsafe): single-threaded WASI has one thread, so no access can race.
        private nonisolated(unsafe) var single: UnsafeMutableRawPointer?
    #else
        private let key: pthread_key_t
    #endif

    /// Makes a slot. Traps only if the system has no key left, which is a process that made
    /// slots in a loop (each use here makes one, once).
    package init() {
        #if os(Windows)
            index = TlsAlloc()
            precondition(index != TLS_OUT_OF_INDEXES, "TlsAlloc found no free index")
        #elseif os(WASI) && !_runtime(_multithreaded)
            single = nil
        #else
            var key = pthread_key_t()
            let result = pthread_key_create(&key, nil)
            precondition(result == 0, "pthread_key_create failed with error \(result)")
            self.key = key
        #endif
    }

    /// This thread's pointer.
    package var value: UnsafeMutableRawPointer? {
        get {
            #if os(Windows)
                TlsGetValue(index)
            #elseif os(WASI) && !_runtime(_multithreaded)
                single
            #else
                pthread_getspecific(key)
            #endif
        }
        set {
            #if os(Windows)
                precondition(TlsSetValue(index, newValue), "TlsSetValue failed")
            #elseif os(WASI) && !_runtime(_multithreaded)
                single = newValue
            #else
                let result = pthread_setspecific(key, newValue)
                precondition(result == 0, "pthread_setspecific failed with error \(result)")
            #endif
        }
    }
}
