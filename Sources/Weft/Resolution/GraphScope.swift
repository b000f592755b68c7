import CWeftThreadFrame
import WeftPrimitives

/// The `.graph` values of one outermost resolution: each key, resolved from one container,
/// gets one value however often the resolution's factories ask for it.
///
/// A synchronous outermost resolve binds a scope to its thread, an `async` one to its task; the
/// nested resolves of its factories and `onCreated` hooks find it there. Nothing is bound until
/// a `.graph` registration exists in the process: resolves before that pay one relaxed load.
final class GraphScope: Sendable {
    struct Key: Hashable {
        let key: ServiceKey
        let resolver: ObjectIdentifier
    }

    private let values = Locked<[Key: any Sendable]>([:])

    /// The value made for `key` in this resolution, if any.
    func value(for key: Key) -> (any Sendable)? {
        values.withLock { $0[key] }
    }

    /// Keeps `value` for `key` unless a value is already kept (a concurrent branch of the same
    /// resolution made one first): returns the kept value, and whether it is `value`.
    func keep(_ value: any Sendable, for key: Key) -> (value: any Sendable, isNew: Bool) {
        values.withLock { values in
            if let kept = values[key] { return (kept, false) }
            values[key] = value
            return (value, true)
        }
    }

    // MARK: Binding

    /// Whether any `.graph` registration was ever made: only then do resolves bind scopes. A C
    /// global (see `CWeftThreadFrame.h`): a Swift one costs a lazy initialization check.
    static var isInUse: Bool { cweft_graph_scopes_in_use_get() != 0 }

    static func noteInUse() {
        if !isInUse { cweft_graph_scopes_in_use_set() }
    }

    /// The scope of the `async` resolution this task runs.
    @TaskLocal private static var task: GraphScope?

    /// The scope of the synchronous resolution this thread runs: a retained scope, or
    /// ``unallocated`` while the resolution has needed none yet.
    private static let thread = ThreadLocalSlot()

    private static var unallocated: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1).unsafelyUnwrapped }

    /// The scope of the resolution running on this thread or task, made on first use.
    static var current: GraphScope? {
        if let raw = thread.value {
            if raw != unallocated { return Unmanaged<GraphScope>.fromOpaque(raw).takeUnretainedValue() }
            let scope = GraphScope()
            thread.value = Unmanaged.passRetained(scope).toOpaque()
            return scope
        }
        return task
    }

    /// Runs the synchronous outermost resolution `body` with a scope of its own, unless this
    /// thread or task already has one (a hook's resolve, a resolve inside an `async` factory).
    static func binding<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        guard thread.value == nil, task == nil else { return try body() }
        thread.value = unallocated
        defer {
            if let raw = thread.value, raw != unallocated {
                Unmanaged<GraphScope>.fromOpaque(raw).release()
            }
            thread.value = nil
        }
        return try body()
    }

    /// Runs the `async` outermost resolution `body` with a scope of its own, unless one is bound.
    static func binding<R>(_ body: () async throws(ResolutionError) -> R) async throws(ResolutionError) -> R {
        guard task == nil, thread.value == nil else { return try await body() }
        let result = await $task.withValue(GraphScope()) { () async -> Result<R, ResolutionError> in
            do throws(ResolutionError) { return .success(try await body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
