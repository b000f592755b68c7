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

/// One object per thread for the length of a call: a thread is unbound, bound with no object
/// yet, or bound to an object made on its first use and released when the call ends.
///
/// Contract: ``object(orMake:)`` is called only on a thread inside ``binding(_:)``, or where it
/// may find the thread unbound; the object it returns lives until that ``binding(_:)`` ends,
/// so the caller must not keep it longer. The slot holds `nil` (unbound), the address 1 (bound,
/// no object: no object is at address 1) or the object's address, retained.
package final class ThreadBinding<Object: AnyObject & Sendable>: Sendable {
    private let slot = ThreadLocalSlot()
    private static var boundWithoutObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }

    package init() {}

    /// Whether this thread runs inside ``binding(_:)``.
    package var isBound: Bool { slot.value != nil }

    /// The object bound to this thread, made by `make` on first use; `nil` when the thread is
    /// unbound.
    package func object(orMake make: () -> Object) -> Object? {
        guard let raw = slot.value else { return nil }
        if raw != Self.boundWithoutObject { return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue() }
        let object = make()
        slot.value = Unmanaged.passRetained(object).toOpaque()
        return object
    }

    /// Runs `body` with this thread bound, then releases the object made meanwhile, if any.
    /// The caller checks ``isBound`` first: a thread bound already keeps its binding.
    package func binding<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        precondition(slot.value == nil, "a thread bound twice")
        slot.value = Self.boundWithoutObject
        defer {
            if let raw = slot.value, raw != Self.boundWithoutObject { Unmanaged<Object>.fromOpaque(raw).release() }
            slot.value = nil
        }
        return try body()
    }
}
