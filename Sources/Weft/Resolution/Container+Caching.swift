import Logging
import WeftPrimitives

/// What one look at the cache of a cached service decided.
enum CacheStep: Sendable {
    case value(any Sendable)
    case wait(Creation)
    /// Nothing cached, nothing in flight: the caller makes the value, in this frame, and ends
    /// with ``Container/finish(_:for:of:outcome:)``.
    case create(ResolutionFrame)
    /// The holder was shut down (``Container/shutdown()``).
    case shutDown
}

/// What the factory of an `instance:` registration makes: the value it was given, marked so
/// that the container caches it as any singleton's but never disposes it.
@usableFromInline
struct GivenValue: Sendable {
    @usableFromInline let value: any Sendable

    @inlinable
    init(_ value: any Sendable) { self.value = value }
}

/// The cache steps of a singleton, scoped or weak service, shared by the synchronous and the
/// `async` engine: they differ only in how they wait and how they run the factory.
extension Container {
    /// Under one lock: the cached value, the creation of `registration` in flight to wait for,
    /// or a new creation the caller runs, in the frame `frame` makes (only then: a value already cached,
    /// such as a weak one still held, costs no allocation). The ``Creation`` others wait on is
    /// made by the first of them: a creation nobody waits for costs its frame alone.
    func step(for key: ServiceKey, of registration: Registration, frame: () -> ResolutionFrame) -> CacheStep {
        let recording = recorder != nil
        var trace: (@Sendable (ResolutionTrace) -> Void)?
        var lifetime: Lifetime?
        let step = state.withLock { state -> CacheStep in
            if state.isShutDown { return .shutDown }
            if let stored = state.cache.storedInstance(for: key) {
                trace = state.diagnostics.onResolution
                lifetime = state.registrations[key]?.lifetime
                if case .strong(let value) = stored {
                    if !recording { state.publish(value, for: key, to: snapshot) }
                    return .value(value)
                }
                if let value = stored.sendableValue { return .value(value) }
                trace = nil
            }
            if let creation = state.creations.waitable(registration) { return .wait(creation) }
            // Nothing in flight (`waitable` found none): the start always succeeds.
            let made = frame()
            _ = state.creations.start(registration, by: Creator(made))
            return .create(made)
        }
        if trace != nil { traceCached(key, trace, lifetime: lifetime) }
        return step
    }

    /// The value cached here for `key`, strongly or weakly held, without starting a creation.
    func cachedValue(for key: ServiceKey) -> (any Sendable)? {
        if let cached = snapshot.value(for: key) { return cached }
        return state.withLock { state in
            state.isShutDown ? nil : state.cache.storedInstance(for: key)?.sendableValue
        }
    }

    /// Whether ``shutdown()`` was called.
    var isShutDown: Bool { state.withLock { $0.isShutDown } }

    /// Ends `creation` and hands its outcome to the waiters; returns the outcome the creator
    /// reports.
    ///
    /// The value is cached unless `registration` was replaced while its factory ran (a value
    /// of the old registration must not outlive it). A failure of a creator whose task was
    /// cancelled is the creator's alone: the creation is abandoned and the waiters start over.
    /// A value made after ``shutdown()`` began is nobody's: everyone gets
    /// ``ResolutionError/shutDown(_:)``, and a ``Disposable`` one is returned in `late` for the
    /// creator to dispose at once.
    func finish(
        _ creator: Creator, for key: ServiceKey, of registration: Registration, outcome: Creation.Outcome
    ) -> (outcome: Creation.Outcome, late: (any Disposable)?) {
        let abandoned = if case .failure = outcome { Task.isCancelled } else { false }
        var outcome = outcome
        var (isGiven, isNil) = (false, false)
        var object: ObjectAddress?
        if case .success(var made) = outcome {
            object = registration.keyTypeIsClass ? TrustedCasts.reference(in: &made, ofExactly: key.typeAddress) : nil
            if object == nil {
                let value: any Sendable
                (value, isGiven, isNil) = Self.unwrap(made)
                if isGiven { outcome = .success(value) }
            }
        }
        var late: (any Disposable)?
        let creation = state.withLock { state -> Creation? in
            let creation = state.creations.end(registration, by: creator)
            guard case .success(let value) = outcome else { return creation }
            let shutDown = keep(
                value, object: object, for: key, of: registration, isGiven: isGiven, isNil: isNil, in: &state
            ) { state in isCurrent(registration, for: key, in: state) }
            if shutDown {
                late = isGiven ? nil : value as? any Disposable
                outcome = .failure(.shutDown(key))
            }
            return creation
        }
        creation?.complete(abandoned ? .abandoned : .finished(outcome))
        return (outcome, late)
    }

    /// ``finish(_:for:of:outcome:)`` for a value `registration`, this container's own
    /// synchronous singleton, made: the cold path, without an outcome to copy around.
    func finishMade(
        _ made: consuming any Sendable, by creator: Creator, for key: ServiceKey, of registration: Registration,
        version: UInt
    ) throws(ResolutionError) -> any Sendable {
        var made = made
        // An instance of exactly the key's class, told from the boxed type's address: neither
        // given nor optional, and cached without reading its class's metadata.
        let object = registration.keyTypeIsClass ? TrustedCasts.reference(in: &made, ofExactly: key.typeAddress) : nil
        let (value, isGiven, isNil) = object == nil ? Self.unwrap(consume made) : (consume made, false, false)
        var shutDown = false
        let creation = state.withLock { state -> Creation? in
            let creation = state.creations.end(registration, by: creator)
            shutDown = keep(
                value, object: object, for: key, of: registration, isGiven: isGiven, isNil: isNil, in: &state
            ) { state in
                // Still the registration in force: nothing changed since, or it was put back.
                state.registrationsVersion == version || state.registrations[key] === registration
            }
            return creation
        }
        if shutDown {
            // A value made after shutdown began is nobody's; disposal is async, so a synchronous
            // resolve hands it to a task of its own.
            creation?.complete(.finished(.failure(.shutDown(key))))
            if !isGiven, let disposable = value as? any Disposable { disposeLateInTask(disposable, key: key) }
            throw .shutDown(key)
        }
        creation?.complete(.finished(.success(value)))
        return value
    }

    /// What becomes of `value`, which `registration`'s factory made for `key`, once its creation
    /// ended: the one rule both ``finish(_:for:of:outcome:)`` and
    /// ``finishMade(_:by:for:of:version:)`` follow, under the lock. Made after ``shutdown()``
    /// began, it is nobody's (returns `true`: the caller fails and disposes it). Otherwise it is
    /// cached, weakly for a weak registration, unless `isCurrent` says the registration was
    /// replaced meanwhile or the factory of a `T?` gave `nil` (asked again next time, Factory's
    /// rule).
    @inline(__always)
    private func keep(
        _ value: any Sendable, object: ObjectAddress?, for key: ServiceKey, of registration: Registration,
        isGiven: Bool, isNil: Bool, in state: inout State, isCurrent: (State) -> Bool
    ) -> Bool {
        if state.isShutDown { return true }
        guard !isNil, isCurrent(state) else { return false }
        if registration.lifetime == .weak {
            state.cache.setInstance(StoredInstance.weakly(value), for: key)
        } else {
            state.cache.cacheStrongly(
                value, object: object, for: key, disposes: !isGiven, registrations: state.registrationCount,
                publishingTo: snapshot)
        }
        return false
    }

    /// What a factory made, as it is cached: an `instance:` registration's value was given, not
    /// made (the caller disposes it), and a factory of `T?` that gave `nil` is asked again next
    /// time. Neither is a class instance: most values skip both casts.
    @inline(__always)
    private static func unwrap(_ made: consuming any Sendable) -> (value: any Sendable, isGiven: Bool, isNil: Bool) {
        // The boxed type, read by opening the existential: `type(of:)` asks the runtime.
        func isClass<Value>(_: Value) -> Bool { Value.self is AnyClass }
        // Moved out, not copied: a copy retains the instance once more.
        let isClassInstance = _openExistential(copy made, do: isClass)
        guard !isClassInstance else { return (made, false, false) }
        if let given = copy made as? GivenValue { return (given.value, true, false) }
        let isNil = (copy made as? any OptionalType)?.isNone ?? false
        return (made, false, isNil)
    }

    /// ``disposeLate(_:key:)`` in a task of its own, for a synchronous resolve. Apart, so that
    /// the cold path does not set up a task's arguments (a resilient `TaskPriority?`) on entry.
    @inline(never)
    func disposeLateInTask(_ late: any Disposable, key: ServiceKey) {
        Task { await disposeLate(late, key: key) }
    }

    /// Disposes `late`, a value made after shutdown began (see ``finish(_:for:of:outcome:)``);
    /// a failure goes to the diagnostics logger, as no caller is left to receive it.
    func disposeLate(_ late: any Disposable, key: ServiceKey) async {
        do {
            try await late.dispose()
        } catch {
            diagnostics.logger.error(
                "Disposing a service made after shutdown failed",
                metadata: ["weft.key": "\(key)", "weft.error": "\(error)"])
        }
    }

    /// Whether `registration` is still the one this container resolves `key` with. A scope
    /// caches values of its ancestors' registrations, which it does not hold. Called with this
    /// container's lock held: only ancestors' locks are taken, never a descendant's.
    private func isCurrent(_ registration: Registration, for key: ServiceKey, in state: State) -> Bool {
        if let own = state.registrations[key] { return own === registration }
        return parent?.registration(for: key)?.registration === registration
    }

    /// `value`, an ancestor's cached singleton, also kept in this container's cache, so that
    /// the next resolve from this scope reads it here — lock-free once published — instead of
    /// going up to the ancestor. Not a creation: it is never disposed here. Kept only while the
    /// ancestors still hold `found`'s registration (checked under this lock; an ancestor that
    /// changes the key forgets it here afterwards).
    func remember(_ value: any Sendable, for key: ServiceKey, from found: Located, heldBy holder: Container)
        -> any Sendable
    {
        guard holder !== self, found.registration.lifetime == .singleton, recorder == nil else { return value }
        state.withLock { state in
            guard !state.isShutDown, state.cache.storedInstance(for: key) == nil, state.registrations[key] == nil,
                parent?.registration(for: key)?.registration === found.registration
            else { return }
            // Not this container's to dispose: an ancestor made it.
            state.cache.cacheStrongly(
                value, for: key, disposes: false, registrations: state.registrationCount, publishingTo: snapshot)
        }
        return value
    }

    static func enterWait(_ frame: ResolutionFrame?, _ creation: Creation) throws(ResolutionError) -> Int? {
        guard let frame else { return nil }
        return try WaitGraph.enter(frame, waitingFor: creation).get()
    }
}
