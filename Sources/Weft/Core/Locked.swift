#if canImport(Synchronization) && !canImport(Darwin)
import Synchronization
#else
import Foundation
#endif

/// A value guarded by a lock: the only place Weft synchronizes shared mutable state.
///
/// On Linux this is the standard library's `Mutex` (a futex); on Apple platforms, where `Mutex`
/// needs macOS 15, it is an `NSLock`, so the package keeps its macOS 14 deployment target.
final class Locked<State: ~Copyable>: Sendable {
    #if canImport(Synchronization) && !canImport(Darwin)
    private let mutex: Mutex<State>

    init(_ state: consuming sending State) {
        mutex = Mutex(state)
    }

    @inline(__always)
    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
    #else
    private let box: Box

    init(_ state: consuming sending State) {
        box = Box(state)
    }

    @inline(__always)
    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        box.lock.lock()
        defer { box.lock.unlock() }
        return try body(&box.state)
    }

    // `state` is only read or written while `lock` is held.
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var state: State
        init(_ state: consuming State) { self.state = state }
    }
    #endif
}
