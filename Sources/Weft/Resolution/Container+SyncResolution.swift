extension Container {
    /// Resolves `key` synchronously past the published cache: `local` is this container's
    /// registration for it, if any.
    func resolveSync(
        _ key: ServiceKey, local: Registration?, _ threshold: Duration?, miss: Miss
    ) throws(ResolutionError) -> any Sendable {
        let frame = ResolutionFrame.current
        do throws(ResolutionError) {
            if let local, local.lifetime == .transient, recorder == nil, case .sync(let factory) = local.factory {
                // This container's own transient: the most common uncached resolve, kept lean.
                let id = ObjectIdentifier(self)
                if let frame, let cycle = frame.cycle(closingAt: key, owner: id, resolver: id) {
                    throw ResolutionError.circularDependency(cycle: cycle)
                }
                return try Self.runOnStack(factory, key: key, owner: id, resolver: self, threshold, parent: frame)
            }
            return try obtainSync(key, local: local, threshold, frame: frame, miss: miss)
        } catch {
            if frame == nil { report(error, of: key, miss: miss) }
            throw error
        }
    }

    private func obtainSync(
        _ key: ServiceKey, local: Registration?, _ localThreshold: Duration?, frame: FrameLink?, miss: Miss
    ) throws(ResolutionError) -> any Sendable {
        let found = try locate(key, local: local, localThreshold, frame: frame, miss: miss)
        guard case .sync(let factory) = found.registration.factory else {
            throw .requiresAsync(key, path: frame?.path ?? [])
        }
        guard let cache = found.cacheHolder else {
            return try Self.runOnStack(factory, key: key, owner: found.ownerID, resolver: found.resolver, found.threshold, parent: frame)
        }
        // E.g. a scope resolving its parent's singleton: the holder's snapshot, before its lock.
        if let cached = cache.snapshot.value(for: key) { return cached }
        let newFrame = ResolutionFrame(key: key, owner: found.ownerID, resolver: found.resolverID, parent: frame?.onHeap())
        while true {
            switch cache.step(for: key, frame: newFrame) {
            case .value(let value):
                return value
            case .shutDown:
                throw .shutDown(key)
            case .wait(let creation):
                let ticket = try Self.enterWait(frame?.onHeap(), creation)
                let completion = creation.wait()
                ticket.map(WaitGraph.leave)
                if let value = try completion.get() { return value }
            // Abandoned by a cancelled creator: look again, and maybe take the creation over.
            case .create(let creation):
                let outcome = Result { () throws(ResolutionError) -> any Sendable in
                    try Self.run(factory, key: key, frame: .heap(newFrame), resolver: found.resolver, slowThreshold: found.threshold)
                }
                cache.finish(creation, for: key, of: found.registration, outcome: outcome)
                return try outcome.get()
            }
        }
    }

    /// Runs a transient's factory with its step on this thread's stack: no allocation.
    private static func runOnStack(
        _ factory: @Sendable (Resolver) throws -> any Sendable,
        key: ServiceKey, owner: ObjectIdentifier, resolver: Container, _ threshold: Duration?, parent: FrameLink?
    ) throws(ResolutionError) -> any Sendable {
        let step = StackFrame(key: key, owner: owner, resolver: ObjectIdentifier(resolver), parent: parent)
        return try withUnsafePointer(to: step) { (step) throws(ResolutionError) -> any Sendable in
            try run(factory, key: key, frame: .stack(step), resolver: resolver, slowThreshold: threshold)
        }
    }

    static func run(
        _ factory: @Sendable (Resolver) throws -> any Sendable,
        key: ServiceKey, frame: FrameLink, resolver: Container, slowThreshold: Duration?
    ) throws(ResolutionError) -> any Sendable {
        if slowThreshold != nil {
            return try runTimed(factory, key: key, frame: frame, resolver: resolver)
        }
        do {
            return try ThreadFrame.with(frame) { try factory(Resolver(resolver)) }
        } catch {
            throw failure(error, key: key, frame: frame)
        }
    }

    /// ``run(_:key:frame:resolver:slowThreshold:)`` with a slow-resolution threshold set. Apart,
    /// so the untimed path never touches the clock (`ContinuousClock.Instant` is resilient:
    /// even an unused optional of it costs metadata lookups).
    @inline(never)
    private static func runTimed(
        _ factory: @Sendable (Resolver) throws -> any Sendable,
        key: ServiceKey, frame: FrameLink, resolver: Container
    ) throws(ResolutionError) -> any Sendable {
        let start = ContinuousClock.now
        let value: any Sendable
        do {
            value = try ThreadFrame.with(frame) { try factory(Resolver(resolver)) }
        } catch {
            throw failure(error, key: key, frame: frame)
        }
        resolver.noteDuration(ContinuousClock.now - start, of: key)
        return value
    }

    /// A factory's error as a resolution error: a nested resolution's error passes through
    /// unchanged (it already names the deepest cause), anything else is wrapped.
    static func failure(_ error: any Error, key: ServiceKey, frame: FrameLink) -> ResolutionError {
        (error as? ResolutionError) ?? .factoryFailed(key, path: frame.parent?.path ?? [], underlying: error)
    }
}
