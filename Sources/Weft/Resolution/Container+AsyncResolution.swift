extension Container {
    /// The `async` counterpart of ``resolveRegistered(_:local:_:miss:)``, with `arguments` for a
    /// factory that takes them.
    func resolveRegisteredAsync(
        _ key: ServiceKey, local: Registration?, _ threshold: Duration?, arguments: (any Sendable)? = nil
    ) async throws(ResolutionError) -> any Sendable {
        // Async code never runs inside a synchronous factory, so only the task's frame applies.
        let frame = FrameLink.taskFrame
        do {
            guard frame == nil, usesGraphScopes else {
                return try await obtainAsync(key, local: local, threshold, frame: frame, arguments: arguments)
            }
            return try await GraphScope.binding { () async throws(ResolutionError) -> any Sendable in
                try await obtainAsync(key, local: local, threshold, frame: nil, arguments: arguments)
            }
        } catch {
            if frame == nil { throw outermost(error) }
            throw error
        }
    }

    /// The `async` engine past the published cache: one lock (``look(up:by:startingIn:)``, given
    /// no creator), then what it found, the one `async` switch over a lookup. `nested`: a `T?`
    /// resolving `T` in its own step, `frame`, which reports nothing itself.
    func resolveLookedAsync(
        _ key: ServiceKey, arguments: (any Sendable)? = nil, nested: Bool = false, frame: ResolutionFrame? = nil
    ) async throws(ResolutionError) -> any Sendable {
        switch look(up: key, by: nil, startingIn: { Never?.none }) {
        case .value(let value): return value
        case .registration(let registration, let threshold):
            if nested {
                return try await obtainAsync(key, local: registration, threshold, frame: frame, arguments: arguments)
            }
            return try await resolveRegisteredAsync(key, local: registration, threshold, arguments: arguments)
        case .missing:
            if nested { return try await obtainAsync(key, local: nil, nil, frame: frame, arguments: arguments) }
            return try await resolveRegisteredAsync(key, local: nil, nil, arguments: arguments)
        case .shutDown:
            if nested { throw .shutDown(key) }
            throw shutDownError(key, isOutermost: FrameLink.taskFrame == nil)
        }
    }

    private func obtainAsync(
        _ key: ServiceKey, local: Registration?, _ localThreshold: Duration?, frame: ResolutionFrame?,
        arguments: (any Sendable)?
    ) async throws(ResolutionError) -> any Sendable {
        let found: Located
        switch try locate(
            key, local: local, localThreshold, frame: frame.map(FrameLink.heap), miss: .fail, synchronously: false)
        {
        case .registration(let located): found = located
        case .wrapped(let wrapped, let optional):
            do throws(ResolutionError) {
                return optional.wrap(try await obtainWrappedAsync(wrapped, frame: frame))
            } catch  where Self.isMissing(wrapped, error, frame: frame.map(FrameLink.heap)) {
                return optional.wrap(nil)
            }
        }
        let made = found.registration.asynchronousFactory
        if !made.isAsync, made.isMainActor || recorder?.runsOnMainActor == true {
            return try await onMainActor(key, found: found, frame: frame, arguments: arguments)
        }
        let newFrame = ResolutionFrame(key: key, owner: found.ownerID, resolver: found.resolverID, parent: frame)
        if made.takesArguments, arguments == nil { throw Self.argumentMismatch(key, given: nil) }
        let factory = made.code
        guard let cache = found.cacheHolder else {
            if found.registration.lifetime == .graph, let scope = GraphScope.current {
                let graphKey = GraphScope.Key(key: key, resolver: found.resolverID)
                if let kept = scope.value(for: graphKey) { return kept }
                let made = try await Self.runAsync(
                    factory, arguments, key: key, frame: newFrame, resolver: found.resolver,
                    slowThreshold: found.threshold)
                let (value, isNew) = scope.keep(made, for: graphKey)
                if isNew { try Self.runHooks(of: found, on: value, key: key, path: frame?.path) }
                return value
            }
            return try await Self.runAsync(
                factory, arguments, key: key, frame: newFrame, resolver: found.resolver, slowThreshold: found.threshold)
        }
        if let cached = cache.snapshot.value(for: key) { return remember(cached, for: key, from: found, heldBy: cache) }
        while true {
            switch cache.step(for: key, of: found.registration, frame: { newFrame }) {
            case .value(let value):
                return remember(value, for: key, from: found, heldBy: cache)
            case .shutDown:
                throw .shutDown(key)
            case .wait(let creation):
                let ticket = try Self.enterWait(frame, creation)
                let completion = await creation.value(orIfCancelled: .cancelled(key, path: frame?.path ?? []))
                ticket.map(WaitGraph.leave)
                if let value = try completion.get() { return value }
            // Abandoned by a cancelled creator: look again, and maybe take the creation over.
            case .create(let creator):
                let outcome: Creation.Outcome
                do {
                    outcome = .success(
                        try await Self.runAsync(
                            factory, arguments, key: key, frame: newFrame, resolver: found.resolver,
                            slowThreshold: found.threshold))
                } catch {
                    outcome = .failure(error)
                }
                // The table of creations names `creator` unretained: kept alive here until its
                // entry ends, in `finish`.
                let finished = withExtendedLifetime(creator) {
                    cache.finish(Creator(creator), for: key, of: found.registration, outcome: outcome)
                }
                if let late = finished.late { await cache.disposeLate(late, key: key) }
                let value = try finished.outcome.get()
                try Self.runHooks(of: found, on: value, key: key, path: frame?.path)
                return value
            }
        }
    }

    /// The value of `found`, a main-actor registration: cached, or made on the main actor by
    /// the synchronous engine, in this resolution (its path and `.graph` values) but on the
    /// main actor's thread. Every creation of a main-actor service happens there, so none is
    /// ever in flight elsewhere for a main-actor caller to wait for.
    private func onMainActor(_ key: ServiceKey, found: Located, frame: ResolutionFrame?, arguments: (any Sendable)?)
        async throws(ResolutionError) -> any Sendable
    {
        if let cache = found.cacheHolder, let cached = cache.snapshot.value(for: key) {
            return remember(cached, for: key, from: found, heldBy: cache)
        }
        let result = await MainActor.run { () -> Result<any Sendable, ResolutionError> in
            Result { () throws(ResolutionError) -> any Sendable in
                try self.obtain(key, from: found, frame: frame.map(FrameLink.heap), arguments: arguments)
            }
        }
        return try result.get()
    }

    /// The `async` counterpart of `obtainWrappedSync(_:frame:miss:)`.
    private func obtainWrappedAsync(_ key: ServiceKey, frame: ResolutionFrame?) async throws(ResolutionError)
        -> any Sendable
    {
        if let cached = snapshot.value(for: key) { return cached }
        return try await resolveLookedAsync(key, nested: true, frame: frame)
    }

    private static func runAsync(
        _ factory: Registration.Factory.Code, _ arguments: (any Sendable)?,
        key: ServiceKey, frame: ResolutionFrame, resolver: Container, slowThreshold: Duration?
    ) async throws(ResolutionError) -> any Sendable {
        switch factory {
        case .sync(let make):
            return try run(
                make, arguments, key: key, frame: .heap(frame), resolver: resolver, slowThreshold: slowThreshold)
        case .async(let make):
            let start = slowThreshold.map { _ in ContinuousClock.now }
            let value: any Sendable
            do {
                value = try await FrameLink.$taskFrame.withValue(frame) {
                    try await make(Resolver(resolver), arguments)
                }
            } catch {
                throw failure(error, key: key, frame: .heap(frame))
            }
            if let start { resolver.noteDuration(ContinuousClock.now - start, of: key) }
            return value
        }
    }
}
