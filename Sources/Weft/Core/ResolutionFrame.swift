#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One step of the resolution path of the current task: "resolving `key` owned by `owner`".
///
/// Frames form a linked list through task-local storage, so a factory that resolves its
/// dependencies — through its ``Resolver`` or through a captured container — extends the
/// path of the resolution that called it. Cycle detection reads this list; the cached path
/// never touches it.
final class ResolutionFrame: Sendable {
    let key: ServiceKey
    let owner: ObjectIdentifier
    let parent: ResolutionFrame?

    /// The frame of the `async` factory this task is running, if any.
    @TaskLocal static var taskCurrent: ResolutionFrame?

    /// The innermost frame: a synchronous factory running on this thread, else the task's.
    static var current: ResolutionFrame? {
        ThreadFrame.current ?? taskCurrent
    }

    init(key: ServiceKey, owner: ObjectIdentifier, parent: ResolutionFrame?) {
        self.key = key
        self.owner = owner
        self.parent = parent
    }

    /// The keys from the outermost resolution to this one.
    var path: [ServiceKey] {
        var keys: [ServiceKey] = []
        var frame: ResolutionFrame? = self
        while let current = frame {
            keys.append(current.key)
            frame = current.parent
        }
        return keys.reversed()
    }

    /// The frame resolving `key` of `owner` in this chain, if any: a re-entrant resolution.
    func ancestor(key: ServiceKey, owner: ObjectIdentifier) -> ResolutionFrame? {
        var frame: ResolutionFrame? = self
        while let current = frame {
            if current.key == key && current.owner == owner { return current }
            frame = current.parent
        }
        return nil
    }

    /// Whether `other` is this frame or one of its parents.
    func descends(from other: ResolutionFrame) -> Bool {
        var frame: ResolutionFrame? = self
        while let current = frame {
            if current === other { return true }
            frame = current.parent
        }
        return false
    }

    /// The path from `frame` (inclusive) down to this frame.
    func path(from frame: ResolutionFrame) -> [ServiceKey] {
        let full = path
        let depth = frame.path.count
        return Array(full.dropFirst(depth - 1))
    }
}

/// The frame of the synchronous factory running on the current thread.
///
/// A synchronous factory cannot suspend, so its frame belongs to the thread for exactly as
/// long as it runs: a thread-local slot is enough, and much cheaper than binding a task-local
/// value on every transient resolve.
enum ThreadFrame {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: ResolutionFrame? {
        pthread_getspecific(key).map { Unmanaged<ResolutionFrame>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` with `frame` as the thread's current frame.
    @inline(__always)
    static func with<R, E: Error>(_ frame: ResolutionFrame, _ body: () throws(E) -> R) throws(E) -> R {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(frame).toOpaque())
        defer {
            pthread_setspecific(key, previous)
            withExtendedLifetime(frame) {}
        }
        return try body()
    }
}
