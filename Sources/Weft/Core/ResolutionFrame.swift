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

    @TaskLocal static var current: ResolutionFrame?

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
