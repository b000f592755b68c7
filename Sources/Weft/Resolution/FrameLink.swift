import Atomics
import CWeftThreadFrame

/// One step of a resolution path on the stack of the thread running its synchronous factory:
/// a transient's, or a container's own singleton made on the cold path. No allocation. Valid
/// only while that factory runs (``run(key:owner:resolver:parent:_:)``).
///
/// Another thread may read a singleton's step while it is being made, under the lock of the
/// container making it (its entry in ``CreationsInFlight`` names it): the step lives until
/// its creation ends, which takes that lock. Its fields never change once made.
struct StackFrame {
    let key: ServiceKey
    let owner: ObjectIdentifier
    let resolver: ObjectIdentifier
    let parent: FrameLink?
    let depth: Int
    /// The step's heap copy, once something that outlives the step needed one (a waiter's
    /// ``Creation``, the ``WaitGraph``; see ``FrameLink/onHeap()``): the address of a retained
    /// ``ResolutionFrame``, or 0. Set once, atomically, so that the step has one heap copy
    /// whichever thread makes it: the ``WaitGraph`` tells frames apart by identity.
    private var heapCopy = UInt.AtomicRepresentation(0)

    private init(key: ServiceKey, owner: ObjectIdentifier, resolver: ObjectIdentifier, parent: FrameLink?) {
        self.key = key
        self.owner = owner
        self.resolver = resolver
        self.parent = parent
        self.depth = (parent?.depth ?? 0) + 1
    }

    /// Runs `body` with a step for `key` below `parent` on this thread's stack, given as its
    /// link (the only way code outside this file reaches a step), and releases the step's heap
    /// copy, if one was made, when it ends.
    @inline(__always)
    static func run<R, E: Error>(
        key: ServiceKey, owner: ObjectIdentifier, resolver: ObjectIdentifier, parent: FrameLink?,
        _ body: (FrameLink) throws(E) -> R
    ) throws(E) -> R {
        var step = StackFrame(key: key, owner: owner, resolver: resolver, parent: parent)
        return try withUnsafeMutablePointer(to: &step) { (step) throws(E) -> R in
            defer {
                // A load, not an exchange: by now nothing in flight points to the step or below
                // it, so no other thread can reach it to copy it.
                let copy = heapCopy(of: step).load(ordering: .acquiring)
                if copy != 0 { Unmanaged<ResolutionFrame>.fromOpaque(UnsafeRawPointer(bitPattern: copy)!).release() }
            }
            return try body(.stack(UnsafePointer(step)))
        }
    }

    /// The heap copy of the step at `step`, as an atomic.
    @inline(__always)
    private static func heapCopy(of step: UnsafePointer<StackFrame>) -> UnsafeAtomic<UInt> {
        // A stored property's key path: the optimizer makes this a constant offset.
        UnsafeAtomic<UInt>(at: UnsafeMutablePointer(mutating: step).pointer(to: \.heapCopy).unsafelyUnwrapped)
    }

    /// The heap copy of the step at `step`, made now if none was: the same frame every time.
    static func onHeap(_ step: UnsafePointer<StackFrame>) -> ResolutionFrame {
        let slot = heapCopy(of: step)
        let existing = slot.load(ordering: .acquiring)
        if existing != 0 { return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: existing)!).takeUnretainedValue() }
        let made = ResolutionFrame(
            key: step.pointee.key, owner: step.pointee.owner, resolver: step.pointee.resolver,
            parent: step.pointee.parent?.onHeap(), depth: step.pointee.depth)
        let bits = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
        let (exchanged, winner) = slot.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
        if exchanged { return made }
        // Another thread made it first: its copy is the step's.
        Unmanaged<ResolutionFrame>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: winner)!).takeUnretainedValue()
    }
}

/// Who runs a creation (``CreationsInFlight``): a heap frame (the general path) or a step on a
/// thread's stack (the cold path). One word, a
/// ``FrameLink``'s: the frame's address, or the step's with the low bit set, so the two never
/// meet; unlike a link, it may be kept (as a name) while the creation runs.
struct Creator: Hashable {
    private let bits: UInt

    /// The creator running in `frame`.
    init(_ frame: ResolutionFrame) {
        bits = TrustedCasts.address(of: frame)
    }

    /// The creator running in the step `link` links to.
    @inline(__always)
    init(_ link: FrameLink) {
        bits = link.bits
    }

    /// The heap frame those who come to wait for this creator's creation wait on: the frame
    /// itself, or the step's heap copy (``StackFrame/onHeap(_:)``).
    ///
    /// Contract: called while the creation is in flight, under the lock of the container
    /// making it: the frame or step lives until the creation ends, which takes that lock.
    func heapFrame() -> ResolutionFrame {
        let address = UnsafeRawPointer(bitPattern: bits & ~1).unsafelyUnwrapped
        if bits & 1 == 0 { return Unmanaged<ResolutionFrame>.fromOpaque(address).takeUnretainedValue() }
        return StackFrame.onHeap(address.assumingMemoryBound(to: StackFrame.self))
    }
}

/// The innermost step of a resolution path, wherever it is kept.
///
/// Never stored beyond the factory call it describes: a heap frame that outlives it is made
/// with ``onHeap()``, which copies stack steps and keeps heap frames (their identity matters
/// to the ``WaitGraph``). The types hold the rule where they can: a link is never `Sendable`
/// (see below), so nothing that outlives a call — ``ResolutionFrame``, ``Creation``, the
/// ``WaitGraph`` — can keep one. (A `~Escapable` link would close the rule completely, but it
/// needs Swift's experimental `Lifetimes` feature, which a library must not depend on.)
///
/// A link is one word, as the thread's slot holds it (``current``): a heap frame's address,
/// or a stack frame's with the low bit set. It does not retain a heap frame: whoever made the
/// link keeps the frame alive while the link is used (the resolve running the factory, the
/// task-local binding of an `async` factory's frame, a child frame holding its parent), so
/// passing a link, and walking a path, costs no reference counting.
///
/// Linked stack frames are cheaper per step than a thread-local array of frames at the depths
/// most resolves have (`WeftBenchmarks frames` compares the two).
struct FrameLink {
    /// The frame's address; the low bit set for a ``StackFrame``.
    let bits: UInt

    private init(bits: UInt) { self.bits = bits }

    /// A link to `frame`, which the caller keeps alive while the link is used.
    @inline(__always)
    static func heap(_ frame: ResolutionFrame) -> FrameLink {
        FrameLink(bits: UInt(bitPattern: Unmanaged.passUnretained(frame).toOpaque()))
    }

    /// A link to the stack frame at `frame`, valid while its factory runs: made only by
    /// ``StackFrame/run(key:owner:resolver:parent:_:)``.
    @inline(__always)
    fileprivate static func stack(_ frame: UnsafePointer<StackFrame>) -> FrameLink {
        FrameLink(bits: UInt(bitPattern: frame) | 1)
    }

    // MARK: The current step

    /// The frame of the `async` factory this task is running, if any: where an `async` path
    /// keeps its innermost step, as the thread's slot keeps a synchronous one (``current``).
    @TaskLocal static var taskFrame: ResolutionFrame?

    /// The innermost step of the current path: the synchronous factory running on this thread,
    /// else the task's `async` factory (``taskFrame``).
    ///
    /// A synchronous factory cannot suspend, so its step belongs to the thread for exactly as
    /// long as it runs: a thread-local slot is enough, and much cheaper than binding a task-local
    /// value on every transient resolve. The slot (a C `__thread` variable, read and written
    /// inline) holds a link's bits. Unavailable from `async` code: a task may resume on another
    /// thread, where the slot holds that thread's step.
    @available(*, noasync, message: "use FrameLink.taskFrame: a task may resume on another thread")
    static var current: FrameLink? {
        if let raw = cweft_thread_frame_get() { return FrameLink(bits: UInt(bitPattern: raw)) }
        return taskFrame.map(FrameLink.heap)
    }

    /// Runs `body` with this step as the thread's innermost (``current``). The caller keeps a
    /// heap frame linked alive.
    @available(*, noasync, message: "a task may resume on another thread: the step would be left on this one")
    @inline(__always)
    func whileCurrent<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let previous = cweft_thread_frame_get()
        cweft_thread_frame_set(UnsafeMutableRawPointer(bitPattern: bits))
        defer { cweft_thread_frame_set(previous) }
        return try body()
    }

    /// Whether the link is to a ``StackFrame``.
    @inline(__always)
    private var isStack: Bool { bits & 1 != 0 }

    /// The stack frame linked, for a stack link.
    @inline(__always)
    private var stackFrame: UnsafePointer<StackFrame> {
        UnsafePointer(bitPattern: bits & ~1).unsafelyUnwrapped
    }

    /// The heap frame linked, for a heap link, unretained.
    @inline(__always)
    private var heapFrame: Unmanaged<ResolutionFrame> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// `body` applied to the heap frame linked, without retaining it.
    @inline(__always)
    private func withHeapFrame<R>(_ body: (ResolutionFrame) -> R) -> R {
        heapFrame._withUnsafeGuaranteedRef(body)
    }

    var key: ServiceKey {
        isStack ? stackFrame.pointee.key : withHeapFrame { $0.key }
    }

    var owner: ObjectIdentifier {
        isStack ? stackFrame.pointee.owner : withHeapFrame { $0.owner }
    }

    var resolver: ObjectIdentifier {
        isStack ? stackFrame.pointee.resolver : withHeapFrame { $0.resolver }
    }

    var depth: Int {
        isStack ? stackFrame.pointee.depth : withHeapFrame { $0.depth }
    }

    /// The parent step: kept alive by this one.
    var parent: FrameLink? {
        isStack ? stackFrame.pointee.parent : withHeapFrame { $0.parent.map(FrameLink.heap) }
    }

    /// The keys from the outermost resolution to this one.
    var path: [ServiceKey] {
        var keys: [ServiceKey] = []
        var link: FrameLink? = self
        while let current = link {
            keys.append(current.key)
            link = current.parent
        }
        return keys.reversed()
    }

    /// The cycle that resolving `key` of `owner` from `resolver` here would close — the path
    /// from the step already doing so down to this one, then `key` again — or `nil`.
    ///
    /// Paths deeper than ``alwaysCheckedDepth`` are searched only at some steps, further apart
    /// the deeper the path (``checksCycle(atDepth:)``): a chain of D steps costs a constant
    /// number of frame visits per step, and a cycle is found at most half as deep again as where
    /// it closed (32 steps later for a path under 128 deep). It is reported as the one loop it is —
    /// the nearest repetition of the step — starting from the step where it was found.
    func cycle(closingAt key: ServiceKey, owner: ObjectIdentifier, resolver: ObjectIdentifier) -> [ServiceKey]? {
        guard Self.checksCycle(atDepth: self.depth) else { return nil }
        // Searched first without collecting keys: this runs on every nested resolve.
        var link: FrameLink? = self
        var depth = 0
        while let current = link {
            if !current.isStack {
                // Heap frames from here up: followed without a retain and release per step.
                guard let steps = Self.steps(from: current.heapFrame, to: key, owner: owner, resolver: resolver)
                else { return nil }
                return Array(path.suffix(depth + steps + 1)) + [key]
            }
            if current.isStep(key, owner: owner, resolver: resolver) { return Array(path.suffix(depth + 1)) + [key] }
            link = current.parent
            depth += 1
        }
        return nil
    }

    /// How many parents up from `frame` the step resolving `key` of `owner` from `resolver`
    /// is, if it is there. The chain is kept alive by `frame`, so it is walked unretained.
    private static func steps(
        from frame: Unmanaged<ResolutionFrame>, to key: ServiceKey, owner: ObjectIdentifier, resolver: ObjectIdentifier
    ) -> Int? {
        var current = frame
        var steps = 0
        while true {
            let (matches, parent) = current._withUnsafeGuaranteedRef { frame in
                (
                    frame.owner == owner && frame.resolver == resolver && frame.key == key,
                    frame.parent.map { Unmanaged.passUnretained($0) }
                )
            }
            if matches { return steps }
            guard let parent else { return nil }
            current = parent
            steps += 1
        }
    }

    /// Whether this is the step resolving `key` of `owner` from `resolver`. Compares in place:
    /// reading ``key`` would copy the key, and retain its name, at every frame visited.
    @inline(__always)
    func isStep(_ key: ServiceKey, owner: ObjectIdentifier, resolver: ObjectIdentifier) -> Bool {
        if isStack {
            let frame = stackFrame
            return frame.pointee.owner == owner && frame.pointee.resolver == resolver && frame.pointee.key == key
        }
        return withHeapFrame { $0.owner == owner && $0.resolver == resolver && $0.key == key }
    }

    /// Paths shallower than this are checked for a cycle at every step.
    static let alwaysCheckedDepth = 16

    /// Whether a step below a path `depth` deep looks for a cycle: every step while the path is
    /// shallow, then every 32nd, then every (depth / 4 to depth / 2)th, a power of two. A search
    /// visits at most `depth` frames, so a step pays fewer than four visits, however deep.
    @inline(__always)
    static func checksCycle(atDepth depth: Int) -> Bool {
        guard depth >= alwaysCheckedDepth else { return true }
        let interval = max(32, 1 << max(0, Int.bitWidth - depth.leadingZeroBitCount - 2))
        return (depth + 1) & (interval - 1) == 0
    }

    /// This step as a heap frame, for whatever outlives the current factory call.
    func onHeap() -> ResolutionFrame {
        isStack ? StackFrame.onHeap(stackFrame) : heapFrame.takeUnretainedValue()
    }
}

/// A stack link must never cross to another task or thread, nor be kept.
@available(*, unavailable)
extension FrameLink: Sendable {}
