extension Container {
    /// Resolves `key` synchronously past the published cache: `local` is this container's
    /// registration for it, if any.
    func resolveRegistered(
        _ key: ServiceKey, local: Registration?, _ threshold: Duration?, miss: Miss
    ) throws(ResolutionError) -> any Sendable {
        let frame = FrameLink.current
        if frame == nil, usesGraphScopes {
            return try resolveGeneral(key, local: local, threshold, miss: miss, arguments: nil)
        }
        do throws(ResolutionError) {
            if let local, local.lifetime == .transient, recorder == nil, case let made = local.factory,
                case .sync(let factory) = made.code, made.traits.isEmpty
            {
                // This container's own transient: the most common uncached resolve, kept lean.
                let id = ObjectIdentifier(self)
                if let frame, let cycle = frame.cycle(closingAt: key, owner: id, resolver: id) {
                    throw ResolutionError.circularDependency(cycle: cycle)
                }
                return try Self.runOnStack(
                    factory, Registration.Factory.noArguments, key: key, owner: id, resolver: self, threshold,
                    parent: frame)
            }
            return try obtainSync(key, local: local, threshold, frame: frame, miss: miss, arguments: nil)
        } catch {
            if frame == nil { throw outermost(error, of: key, miss: miss) }
            throw error
        }
    }

    /// A synchronous transient found in the published snapshot: `registration` is this
    /// container's own (`owner` is `nil`) or `owner`'s, an ancestor's. The lean path, under the
    /// same rules as a transient found under the lock: same owner and resolver in its frame,
    /// so a cycle is found whichever way each step found its registration.
    func resolveTransient(
        _ key: ServiceKey, _ registration: Registration, owner: Container?, miss: Miss
    ) throws(ResolutionError) -> any Sendable {
        let frame = FrameLink.current
        let made = registration.factory
        guard frame != nil || !usesGraphScopes, case .sync(let factory) = made.code, made.traits.isEmpty else {
            return try resolveGeneral(key, local: owner == nil ? registration : nil, nil, miss: miss, arguments: nil)
        }
        let ownerID = ObjectIdentifier(owner ?? self)
        do throws(ResolutionError) {
            if let frame, let cycle = frame.cycle(closingAt: key, owner: ownerID, resolver: ObjectIdentifier(self)) {
                throw ResolutionError.circularDependency(cycle: cycle)
            }
            return try Self.runOnStack(
                factory, Registration.Factory.noArguments, key: key, owner: ownerID, resolver: self, nil, parent: frame)
        } catch {
            if frame == nil { throw outermost(error, of: key, miss: miss) }
            throw error
        }
    }

    /// ``resolveRegistered(_:local:_:miss:)`` with `arguments` for the factory, or the outermost
    /// resolve once `.graph` registrations exist: it binds the resolution's ``GraphScope``.
    /// Never inlined, so that the transient path above stays a small function.
    @inline(never)
    func resolveGeneral(
        _ key: ServiceKey, local: Registration?, _ threshold: Duration?, miss: Miss, arguments: (any Sendable)?
    ) throws(ResolutionError) -> any Sendable {
        let frame = FrameLink.current
        do throws(ResolutionError) {
            guard frame == nil, usesGraphScopes else {
                return try obtainSync(key, local: local, threshold, frame: frame, miss: miss, arguments: arguments)
            }
            return try GraphScope.binding { () throws(ResolutionError) -> any Sendable in
                try obtainSync(key, local: local, threshold, frame: nil, miss: miss, arguments: arguments)
            }
        } catch {
            if frame == nil { throw outermost(error, of: key, miss: miss) }
            throw error
        }
    }

    func obtainSync(
        _ key: ServiceKey, local: Registration?, _ localThreshold: Duration?, frame: FrameLink?, miss: Miss,
        arguments: (any Sendable)?
    ) throws(ResolutionError) -> any Sendable {
        switch try locate(key, local: local, localThreshold, frame: frame, miss: miss, synchronously: true) {
        case .registration(let found):
            return try obtain(key, from: found, frame: frame, arguments: arguments)
        case .wrapped(let wrapped, let optional):
            do throws(ResolutionError) {
                return optional.wrap(try obtainWrappedSync(wrapped, frame: frame, miss: miss))
            } catch  where Self.isMissing(wrapped, error, frame: frame) {
                return optional.wrap(nil)
            }
        }
    }

    /// The value of `found`'s registration for `key`: cached, or made by its factory on this
    /// thread. Also what an `async` resolve runs once it hopped to the main actor.
    func obtain(
        _ key: ServiceKey, from found: Located, frame: FrameLink?, arguments: (any Sendable)?
    ) throws(ResolutionError) -> any Sendable {
        let made = found.registration.factory
        guard case .sync(let factory) = made.code else {
            // Making a value needs `await`; one already made is served to any context. Not while
            // validating: the edge itself is judged, whatever the copy made before it.
            let error = ResolutionError.requiresAsync(key, path: frame?.path ?? [])
            if recorder != nil { throw error }
            return try madeValue(key, of: found, orThrow: error)
        }
        if made.takesArguments, arguments == nil { throw Self.argumentMismatch(key, given: nil) }
        // Made on the main actor only; one already made is served to any context.
        if made.isMainActor, !MainActorIsolation.isCurrent {
            return try madeOffMainActor(key, of: found, frame: frame)
        }
        guard let cache = found.cacheHolder else {
            if found.registration.lifetime == .graph, let scope = GraphScope.current {
                return try graphValue(key, found, in: scope, frame: frame) { () throws(ResolutionError) in
                    try Self.runOnStack(
                        factory, arguments, key: key, owner: found.ownerID, resolver: found.resolver, found.threshold,
                        parent: frame)
                }
            }
            return try Self.runOnStack(
                factory, arguments, key: key, owner: found.ownerID, resolver: found.resolver, found.threshold,
                parent: frame)
        }
        // E.g. a scope resolving its parent's singleton: the holder's snapshot, before its lock.
        if let cached = cache.snapshot.value(for: key) { return remember(cached, for: key, from: found, heldBy: cache) }
        let (owner, resolver) = (found.ownerID, found.resolverID)
        while true {
            let step = cache.step(for: key, of: found.registration) {
                ResolutionFrame(key: key, owner: owner, resolver: resolver, parent: frame?.onHeap())
            }
            switch step {
            case .value(let value):
                return remember(value, for: key, from: found, heldBy: cache)
            case .shutDown:
                throw .shutDown(key)
            case .wait(let creation):
                let ticket = try Self.enterWait(frame?.onHeap(), creation)
                let completion = creation.wait()
                ticket.map(WaitGraph.leave)
                if let value = try completion.get() { return value }
            // Abandoned by a cancelled creator: look again, and maybe take the creation over.
            case .create(let creator):
                let outcome = Result { () throws(ResolutionError) -> any Sendable in
                    try Self.run(
                        factory, arguments, key: key, frame: .heap(creator), resolver: found.resolver,
                        slowThreshold: found.threshold)
                }
                // The table of creations names `creator` unretained: kept alive here until its
                // entry ends, in `finish`.
                let finished = withExtendedLifetime(creator) {
                    cache.finish(Creator(creator), for: key, of: found.registration, outcome: outcome)
                }
                // Disposal is async: a synchronous resolve hands it to a task of its own.
                if let late = finished.late { cache.disposeLateInTask(late, key: key) }
                let value = try finished.outcome.get()
                try Self.runHooks(of: found, on: value, key: key, path: frame?.path)
                return value
            }
        }
    }

    /// For a synchronous resolve off the main actor of `found`, a main-actor registration: the
    /// value it already made, else ``ResolutionError/requiresIsolation(_:path:)``. A validation
    /// copy never serves the value, so that whether a problem is found cannot depend on the
    /// order in which ``validate()`` resolves keys.
    private func madeOffMainActor(_ key: ServiceKey, of found: Located, frame: FrameLink?)
        throws(ResolutionError) -> any Sendable
    {
        let error = ResolutionError.requiresIsolation(key, path: frame?.path ?? [])
        if recorder != nil { throw error }
        return try madeValue(key, of: found, orThrow: error)
    }

    /// The value `found`'s registration already made for `key`, which any context may have,
    /// where this resolve cannot make one; else `error`.
    private func madeValue(_ key: ServiceKey, of found: Located, orThrow error: ResolutionError)
        throws(ResolutionError) -> any Sendable
    {
        if let cache = found.cacheHolder {
            if let cached = cache.cachedValue(for: key) {
                return remember(cached, for: key, from: found, heldBy: cache)
            }
            if cache.isShutDown { throw .shutDown(key) }
        }
        throw error
    }

    /// `T`'s value for a resolution of `T?`: as any resolution of `T` from this container, in
    /// the step that asked for `T?` (so a cycle through `T?` is found, and `validate()` sees
    /// the edge to `T`), without reporting what the resolution of `T?` reports.
    private func obtainWrappedSync(_ key: ServiceKey, frame: FrameLink?, miss: Miss) throws(ResolutionError)
        -> any Sendable
    {
        if let cached = snapshot.value(for: key) { return cached }
        return try resolveLooked(key, miss: miss, frame: frame, step: nil, nested: true)
    }

    /// The `.graph` value of `key` in `scope`: kept from earlier in this resolution, or made
    /// by `make`, kept, and handed to its hooks.
    func graphValue(
        _ key: ServiceKey, _ found: Located, in scope: GraphScope, frame: FrameLink?,
        make: () throws(ResolutionError) -> any Sendable
    ) throws(ResolutionError) -> any Sendable {
        let graphKey = GraphScope.Key(key: key, resolver: found.resolverID)
        if let kept = scope.value(for: graphKey) { return kept }
        let (value, isNew) = scope.keep(try make(), for: graphKey)
        if isNew { try Self.runHooks(of: found, on: value, key: key, path: frame?.path) }
        return value
    }

    /// Runs the `onCreated` hooks of a cached registration on the value it just made.
    static func runHooks(
        of found: Located, on value: any Sendable, key: ServiceKey, path: @autoclosure () -> [ServiceKey]?
    ) throws(ResolutionError) {
        let hooks = found.registration.onCreated
        guard !hooks.isEmpty, found.registration.lifetime != .transient else { return }
        let resolver = Resolver(found.resolver)
        for hook in hooks {
            do {
                try hook(resolver, value)
            } catch {
                throw (error as? ResolutionError) ?? .factoryFailed(key, path: path() ?? [], underlying: error)
            }
        }
    }

    /// Runs a transient's factory, given `arguments`, with its step on this thread's stack: no
    /// allocation.
    private static func runOnStack(
        _ factory: @Sendable (Resolver, (any Sendable)?) throws -> any Sendable, _ arguments: (any Sendable)?,
        key: ServiceKey, owner: ObjectIdentifier, resolver: Container, _ threshold: Duration?, parent: FrameLink?
    ) throws(ResolutionError) -> any Sendable {
        try StackFrame.run(key: key, owner: owner, resolver: ObjectIdentifier(resolver), parent: parent) {
            (step) throws(ResolutionError) -> any Sendable in
            try run(factory, arguments, key: key, frame: step, resolver: resolver, slowThreshold: threshold)
        }
    }

    static func run(
        _ factory: @Sendable (Resolver, (any Sendable)?) throws -> any Sendable, _ arguments: (any Sendable)?,
        key: ServiceKey, frame: FrameLink, resolver: Container, slowThreshold: Duration?
    ) throws(ResolutionError) -> any Sendable {
        if slowThreshold != nil {
            return try runTimed(factory, arguments, key: key, frame: frame, resolver: resolver)
        }
        do {
            return try frame.whileCurrent { try factory(Resolver(resolver), arguments) }
        } catch {
            throw failure(error, key: key, frame: frame)
        }
    }

    /// ``run(_:key:frame:resolver:slowThreshold:)`` with a slow-resolution threshold set. Apart,
    /// so the untimed path never touches the clock (`ContinuousClock.Instant` is resilient:
    /// even an unused optional of it costs metadata lookups).
    @inline(never)
    private static func runTimed(
        _ factory: @Sendable (Resolver, (any Sendable)?) throws -> any Sendable, _ arguments: (any Sendable)?,
        key: ServiceKey, frame: FrameLink, resolver: Container
    ) throws(ResolutionError) -> any Sendable {
        let start = ContinuousClock.now
        let value: any Sendable
        do {
            value = try frame.whileCurrent { try factory(Resolver(resolver), arguments) }
        } catch {
            throw failure(error, key: key, frame: frame)
        }
        resolver.noteDuration(ContinuousClock.now - start, of: key)
        return value
    }

    /// A factory's error as a resolution error: a nested resolution's error passes through
    /// unchanged (it already names the deepest cause), a live-only registration's refusal is
    /// ``ResolutionError/liveOnly(_:path:)`` (no factory threw), anything else is wrapped.
    static func failure(_ error: any Error, key: ServiceKey, frame: FrameLink) -> ResolutionError {
        if let error = error as? ResolutionError { return error }
        let path = frame.parent?.path ?? []
        if error is LiveOnlyRefusal { return .liveOnly(key, path: path) }
        return .factoryFailed(key, path: path, underlying: error)
    }
}
