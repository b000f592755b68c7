extension Container {
    /// The `async` counterpart of ``resolveSync(_:local:_:miss:)``.
    func resolveAsync(
        _ key: ServiceKey, local: Registration?, _ threshold: Duration?
    ) async throws(ResolutionError) -> any Sendable {
        // Async code never runs inside a synchronous factory, so only the task's frame applies.
        let frame = ResolutionFrame.taskCurrent
        do {
            return try await obtainAsync(key, local: local, threshold, frame: frame)
        } catch {
            if frame == nil { report(error) }
            throw error
        }
    }

    private func obtainAsync(
        _ key: ServiceKey, local: Registration?, _ localThreshold: Duration?, frame: ResolutionFrame?
    ) async throws(ResolutionError) -> any Sendable {
        let found = try locate(key, local: local, localThreshold, frame: frame.map(FrameLink.heap), miss: .fail)
        let newFrame = ResolutionFrame(key: key, owner: found.ownerID, resolver: found.resolverID, parent: frame)
        guard let cache = found.cacheHolder else {
            return try await Self.run(found.registration.factory, key: key, frame: newFrame, resolver: found.resolver, slowThreshold: found.threshold)
        }
        if let cached = cache.snapshot.value(for: key) { return cached }
        while true {
            switch cache.step(for: key, frame: newFrame) {
            case .value(let value):
                return value
            case .shutDown:
                throw .shutDown(key)
            case .wait(let creation):
                let ticket = try Self.enterWait(frame, creation)
                let completion = await creation.value(orIfCancelled: .cancelled(key, path: frame?.path ?? []))
                ticket.map(WaitGraph.leave)
                if let value = try completion.get() { return value }
            // Abandoned by a cancelled creator: look again, and maybe take the creation over.
            case .create(let creation):
                let outcome: Creation.Outcome
                do {
                    outcome = .success(try await Self.run(
                        found.registration.factory, key: key, frame: newFrame, resolver: found.resolver, slowThreshold: found.threshold))
                } catch {
                    outcome = .failure(error)
                }
                cache.finish(creation, for: key, of: found.registration, outcome: outcome)
                return try outcome.get()
            }
        }
    }

    private static func run(
        _ factory: Registration.Factory,
        key: ServiceKey, frame: ResolutionFrame, resolver: Container, slowThreshold: Duration?
    ) async throws(ResolutionError) -> any Sendable {
        switch factory {
        case .sync(let make):
            return try run(make, key: key, frame: .heap(frame), resolver: resolver, slowThreshold: slowThreshold)
        case .async(let make):
            let start = slowThreshold.map { _ in ContinuousClock.now }
            let value: any Sendable
            do {
                value = try await ResolutionFrame.$taskCurrent.withValue(frame) { try await make(Resolver(resolver)) }
            } catch {
                throw failure(error, key: key, frame: .heap(frame))
            }
            if let start { resolver.noteDuration(ContinuousClock.now - start, of: key) }
            return value
        }
    }
}
