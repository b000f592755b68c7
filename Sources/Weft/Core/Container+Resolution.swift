import Foundation

/// What one look at a container's state found.
///
/// Not generic on purpose: Weft's callers live in other modules, where generic internals run
/// unspecialized and instantiate `Lookup<T>` metadata on every resolve. The one cast to `T`
/// happens at the end, in ``Container/resolveSync(_:)``.
enum Lookup: Sendable {
    case value(any Sendable)
    case registration(Registration, slowThreshold: Duration?)
    case missing
}

/// What one look at the cache of a cached service decided.
enum CacheStep: Sendable {
    case value(any Sendable)
    case wait(Creation)
    case create(Creation)
}

extension Container {
    // MARK: Synchronous

    /// The value for `key` cast to `T`. Inlined into every public entry point, so the cast is
    /// specialized for the caller's concrete type while the engine stays non-generic.
    @inlinable
    func resolveSync<T: Sendable>(_ key: ServiceKey) throws(ResolutionError) -> T {
        // A cached class instance: a retain and a class check, no existential.
        if let object = publishedObject(key), let typed = object as? T { return typed }
        return try Self.cast(resolveAny(key), key)
    }

    /// The `async` counterpart of ``resolveSync(_:)``; a cached value needs no suspension.
    @inlinable
    func resolveAsync<T: Sendable>(_ key: ServiceKey) async throws(ResolutionError) -> T {
        if let object = publishedObject(key), let typed = object as? T { return typed }
        let value = if let cached = cachedAny(key) { cached } else { try await resolveAnyAsync(key) }
        return try Self.cast(value, key)
    }

    /// The value for `key`, not yet cast to its type: the non-generic core.
    @usableFromInline
    func resolveAny(_ key: ServiceKey) throws(ResolutionError) -> any Sendable {
        if let cached = snapshot.value(for: key) { return cached }
        return try resolveUncached(key)
    }

    /// ``resolveAny(_:)`` past the published cache. Never inlined, so that the cached path
    /// stays a small function.
    @inline(never)
    private func resolveUncached(_ key: ServiceKey) throws(ResolutionError) -> any Sendable {
        // Destructured once here: passing the enum down would copy its payloads at every call.
        switch look(up: key) {
        case .value(let value): return value
        case .registration(let registration, let threshold): return try resolveSync(key, local: registration, threshold)
        case .missing: return try resolveSync(key, local: nil, nil)
        }
    }

    /// `value` as the `T` its key promises. Consumes `value`: a copying cast would cost a
    /// retain and a release on every resolve.
    @inlinable
    static func cast<T>(_ value: consuming any Sendable, _ key: ServiceKey) throws(ResolutionError) -> T {
        if let typed = value as? T { return typed }
        throw mismatch(key, expected: T.self)
    }

    /// The error for a value of another type than its key's: unreachable through the public API.
    @usableFromInline
    static func mismatch(_ key: ServiceKey, expected: Any.Type) -> ResolutionError {
        .factoryFailed(key, path: [], underlying: TypeMismatch(expected: expected))
    }

    /// The value cached here for `key`, if any.
    @usableFromInline
    func cachedAny(_ key: ServiceKey) -> (any Sendable)? {
        if let cached = snapshot.value(for: key) { return cached }
        if case .value(let value) = look(up: key) { return value }
        return nil
    }

    /// The cached class instance for `key` in the published snapshot, if any: no lock.
    @usableFromInline
    func publishedObject(_ key: ServiceKey) -> AnyObject? {
        snapshot.object(for: key)
    }

    /// The `async` counterpart of ``resolveAny(_:)``.
    @usableFromInline
    func resolveAnyAsync(_ key: ServiceKey) async throws(ResolutionError) -> any Sendable {
        switch look(up: key) {
        case .value(let value): return value
        case .registration(let registration, let threshold): return try await resolveAsync(key, local: registration, threshold)
        case .missing: return try await resolveAsync(key, local: nil, nil)
        }
    }

    private func resolveSync(
        _ key: ServiceKey, local: Registration?, _ threshold: Duration?
    ) throws(ResolutionError) -> any Sendable {
        let frame = ResolutionFrame.current
        do {
            if let local, local.lifetime == .transient, recorder == nil, case .sync(let factory) = local.factory {
                return try makeTransient(key, factory, threshold, frame: frame)
            }
            return try obtainSync(key, local: local, threshold, frame: frame)
        } catch {
            if frame == nil { report(error) }
            throw error
        }
    }

    /// This container's own synchronous transient: the most common uncached resolve, kept lean.
    private func makeTransient(
        _ key: ServiceKey, _ factory: @Sendable (Resolver) throws -> any Sendable, _ threshold: Duration?, frame: FrameLink?
    ) throws(ResolutionError) -> any Sendable {
        let owner = ObjectIdentifier(self)
        if let frame, let cycle = frame.cycle(closingAt: key, owner: owner) {
            throw .circularDependency(cycle: cycle)
        }
        let step = StackFrame(key: key, owner: owner, parent: frame)
        return try withUnsafePointer(to: step) { (step) throws(ResolutionError) -> any Sendable in
            try Self.run(factory, key: key, frame: .stack(step), resolver: Resolver(self), slowThreshold: threshold)
        }
    }

    private func obtainSync(
        _ key: ServiceKey, local: Registration?, _ localThreshold: Duration?, frame: FrameLink?
    ) throws(ResolutionError) -> any Sendable {
        let (owner, registration, threshold) = try locate(key, local: local, localThreshold, frame: frame)
        guard case .sync(let factory) = registration.factory else {
            throw .requiresAsync(key, path: frame?.path ?? [])
        }
        let resolver = Resolver(registration.lifetime.resolvesFromOwner ? owner : self)
        guard let cache = cacheHolder(for: registration, owner: owner) else {
            // A transient: its step lives on this thread's stack while its factory runs.
            let step = StackFrame(key: key, owner: ObjectIdentifier(owner), parent: frame)
            return try withUnsafePointer(to: step) { (step) throws(ResolutionError) -> any Sendable in
                try Self.run(factory, key: key, frame: .stack(step), resolver: resolver, slowThreshold: threshold)
            }
        }
        // E.g. a scope resolving its parent's singleton: the holder's snapshot, before its lock.
        if let cached = cache.snapshot.value(for: key) { return cached }
        let newFrame = ResolutionFrame(key: key, owner: ObjectIdentifier(owner), parent: frame?.onHeap())
        switch cache.step(for: key, frame: newFrame) {
        case .value(let value):
            return value
        case .wait(let creation):
            let ticket = try Self.enterWait(frame?.onHeap(), creation)
            defer { ticket.map(WaitGraph.leave) }
            return try creation.wait().get()
        case .create(let creation):
            let outcome: Creation.Outcome
            do {
                outcome = .success(try Self.run(factory, key: key, frame: .heap(newFrame), resolver: resolver, slowThreshold: threshold))
            } catch {
                outcome = .failure(error)
            }
            cache.finish(creation, for: key, of: registration, outcome: outcome)
            return try outcome.get()
        }
    }

    private static func run(
        _ factory: @Sendable (Resolver) throws -> any Sendable,
        key: ServiceKey, frame: FrameLink, resolver: Resolver, slowThreshold: Duration?
    ) throws(ResolutionError) -> any Sendable {
        if slowThreshold != nil {
            return try runTimed(factory, key: key, frame: frame, resolver: resolver)
        }
        do {
            return try ThreadFrame.with(frame) { try factory(resolver) }
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
        key: ServiceKey, frame: FrameLink, resolver: Resolver
    ) throws(ResolutionError) -> any Sendable {
        let start = ContinuousClock.now
        let value: any Sendable
        do {
            value = try ThreadFrame.with(frame) { try factory(resolver) }
        } catch {
            throw failure(error, key: key, frame: frame)
        }
        resolver.container.noteDuration(ContinuousClock.now - start, of: key)
        return value
    }

    /// A factory's error as a resolution error: a nested resolution's error passes through
    /// unchanged (it already names the deepest cause), anything else is wrapped.
    private static func failure(_ error: any Error, key: ServiceKey, frame: FrameLink) -> ResolutionError {
        (error as? ResolutionError) ?? .factoryFailed(key, path: frame.parent?.path ?? [], underlying: error)
    }

    // MARK: Asynchronous

    private func resolveAsync(
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
        let (owner, registration, threshold) = try locate(key, local: local, localThreshold, frame: frame.map(FrameLink.heap))
        let newFrame = ResolutionFrame(key: key, owner: ObjectIdentifier(owner), parent: frame)
        let resolver = Resolver(registration.lifetime.resolvesFromOwner ? owner : self)
        guard let cache = cacheHolder(for: registration, owner: owner) else {
            return try await Self.run(registration.factory, key: key, frame: newFrame, resolver: resolver, slowThreshold: threshold)
        }
        if let cached = cache.snapshot.value(for: key) { return cached }
        switch cache.step(for: key, frame: newFrame) {
        case .value(let value):
            return value
        case .wait(let creation):
            let ticket = try Self.enterWait(frame, creation)
            let outcome = await creation.value(orIfCancelled: .cancelled(key, path: frame?.path ?? []))
            ticket.map(WaitGraph.leave)
            return try outcome.get()
        case .create(let creation):
            let outcome: Creation.Outcome
            do {
                outcome = .success(try await Self.run(
                    registration.factory, key: key, frame: newFrame, resolver: resolver, slowThreshold: threshold))
            } catch {
                outcome = .failure(error)
            }
            cache.finish(creation, for: key, of: registration, outcome: outcome)
            return try outcome.get()
        }
    }

    private static func run(
        _ factory: Registration.Factory,
        key: ServiceKey, frame: ResolutionFrame, resolver: Resolver, slowThreshold: Duration?
    ) async throws(ResolutionError) -> any Sendable {
        switch factory {
        case .sync(let make):
            return try run(make, key: key, frame: .heap(frame), resolver: resolver, slowThreshold: slowThreshold)
        case .async(let make):
            let start = slowThreshold.map { _ in ContinuousClock.now }
            let value: any Sendable
            do {
                value = try await ResolutionFrame.$taskCurrent.withValue(frame) { try await make(resolver) }
            } catch {
                throw failure(error, key: key, frame: .heap(frame))
            }
            if let start { resolver.container.noteDuration(ContinuousClock.now - start, of: key) }
            return value
        }
    }

    // MARK: Shared steps

    /// One lock: a cached value here, or this container's registration for `key`.
    @inline(__always)
    private func look(up key: ServiceKey) -> Lookup {
        let recording = recorder != nil
        return state.withLock { state -> Lookup in
            if !recording, case .strong(let value)? = state.instances[key] {
                state.cache.noteLockedHit(state.instances, to: snapshot)
                return .value(value)
            }
            if let registration = state.registrations[key] {
                return .registration(registration, slowThreshold: state.diagnostics.slowResolutionThreshold)
            }
            return .missing
        }
    }

    /// The registration for `key` (this container's `local` one, else an ancestor's) and its
    /// owner, after checking for a cycle.
    private func locate(
        _ key: ServiceKey, local: Registration?, _ localThreshold: Duration?, frame: FrameLink?
    ) throws(ResolutionError) -> (Container, Registration, Duration?) {
        let found: (Container, Registration, Duration?)
        if let local {
            found = (self, local, localThreshold)
        } else if let (owner, registration) = parent?.registration(for: key) {
            found = (owner, registration, state.withLock { $0.diagnostics.slowResolutionThreshold })
        } else {
            throw .notRegistered(key, path: frame?.path ?? [], suggestions: suggestions(for: key))
        }
        if let frame, let cycle = frame.cycle(closingAt: key, owner: ObjectIdentifier(found.0)) {
            throw .circularDependency(cycle: cycle)
        }
        recorder?.record(from: frame?.key, to: found.1)
        return found
    }

    /// The container whose cache keeps values of `registration`, or `nil` for transients.
    private func cacheHolder(for registration: Registration, owner: Container) -> Container? {
        switch registration.lifetime {
        case .transient: nil
        case .singleton, .weak: owner
        case .scoped: self
        }
    }

    private func step(for key: ServiceKey, frame: ResolutionFrame) -> CacheStep {
        let recording = recorder != nil
        return state.withLock { state -> CacheStep in
            if let stored = state.instances[key] {
                if case .strong(let value) = stored {
                    if !recording { state.cache.noteLockedHit(state.instances, to: snapshot) }
                    return .value(value)
                }
                if let value = stored.sendableValue { return .value(value) }
            }
            if let creation = state.creations[key] { return .wait(creation) }
            let creation = Creation(frame: frame)
            state.creations[key] = creation
            return .create(creation)
        }
    }

    /// Ends `creation`: caches its value, unless `registration` was replaced while its factory
    /// ran (a value of the old registration must not outlive it), and hands it to the waiters.
    private func finish(_ creation: Creation, for key: ServiceKey, of registration: Registration, outcome: Creation.Outcome) {
        state.withLock { state in
            if state.creations[key] === creation { state.creations[key] = nil }
            // A scope caches values of its ancestors' registrations, which it does not hold.
            let isCurrent = state.registrations[key].map { $0 === registration } ?? (registration.lifetime == .scoped)
            if case .success(let value) = outcome, isCurrent {
                state.instances[key] = registration.lifetime == .weak ? StoredInstance.weakly(value) : .strong(value)
            }
        }
        creation.complete(outcome)
    }

    private static func enterWait(_ frame: ResolutionFrame?, _ creation: Creation) throws(ResolutionError) -> Int? {
        guard let frame else { return nil }
        return try WaitGraph.enter(frame, waitingFor: creation).get()
    }

    /// The registered keys closest to `key`: same type under another name, then similar names.
    ///
    /// Bounded work: a miss in `resolve(_:) -> T?` is often a deliberate probe, so the edit
    /// distance is computed over at most ``suggestionCandidateLimit`` registrations.
    func suggestions(for key: ServiceKey) -> [ServiceKey] {
        let candidates = Array(visibleRegistrations().keys)
        let sameType = candidates.filter { $0.typeName == key.typeName && $0 != key }
            .sorted { $0.description < $1.description }
        guard candidates.count <= Self.suggestionCandidateLimit else { return Array(sameType.prefix(3)) }
        let target = key.typeName.lowercased()
        let similar = candidates
            .filter { $0.typeName != key.typeName }
            .map { ($0, editDistance($0.typeName.lowercased(), target)) }
            .filter { $0.1 <= max(2, target.count / 3) }
            .sorted { ($0.1, $0.0.description) < ($1.1, $1.0.description) }
            .map(\.0)
        return Array((sameType + similar).prefix(3))
    }

    /// Above this many registrations, suggestions are only same-type registrations.
    static let suggestionCandidateLimit = 512
}

extension Lifetime {
    /// Whether the factory resolves from the registering container rather than the asking one.
    var resolvesFromOwner: Bool { self == .singleton || self == .weak }
}

/// A cached value of another type than the key's: a broken invariant, reported, not trapped.
struct TypeMismatch: Error, CustomStringConvertible {
    let expected: Any.Type
    var description: String { "the value made for it is not a \(expected)" }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
