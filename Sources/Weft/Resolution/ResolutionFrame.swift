/// One step of a resolution path kept on the heap: "resolving `key`, registered in `owner`,
/// with a factory that resolves from `resolver`".
///
/// A step is identified by all three: the same key resolved again from another container is
/// another step (a child's override may end the recursion), not a cycle.
///
/// Cached services and `async` factories get heap frames: a singleton's ``Creation`` and the
/// ``WaitGraph`` keep referring to them, and an `async` factory's frame travels with its task
/// (``FrameLink/taskFrame``). A transient's synchronous factory uses a ``StackFrame`` instead.
final class ResolutionFrame: Sendable {
    let key: ServiceKey
    let owner: ObjectIdentifier
    let resolver: ObjectIdentifier
    let parent: ResolutionFrame?
    /// How many steps the path has down to this one (1 for an outermost resolve).
    let depth: Int

    init(key: ServiceKey, owner: ObjectIdentifier, resolver: ObjectIdentifier, parent: ResolutionFrame?) {
        self.key = key
        self.owner = owner
        self.resolver = resolver
        self.parent = parent
        self.depth = (parent?.depth ?? 0) + 1
    }

    init(key: ServiceKey, owner: ObjectIdentifier, resolver: ObjectIdentifier, parent: ResolutionFrame?, depth: Int) {
        self.key = key
        self.owner = owner
        self.resolver = resolver
        self.parent = parent
        self.depth = depth
    }

    /// The keys from the outermost resolution to this one.
    var path: [ServiceKey] { FrameLink.heap(self).path }

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
