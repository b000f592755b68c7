import WeftPrimitives

/// What one look at a container's state found, under its lock.
///
/// Not generic over the resolved type on purpose: Weft's callers live in other modules, where
/// generic internals run unspecialized and instantiate `Lookup<T>` metadata on every resolve.
/// The one cast to `T` happens at the end, in ``Container/resolveSync(_:name:miss:)``. `Step`
/// is ``FrameLink`` for the synchronous engine, which gives a step to start a creation in, and
/// `Never` for the `async` one, which does not: it never has that case to handle.
enum Lookup<Step> {
    case value(any Sendable)
    /// The creation of this container's synchronous singleton, started under the lock in the
    /// caller's `step` at the registrations' `version`, for the caller to run
    /// (``Container/create(_:_:version:in:isOutermost:miss:)``).
    case started(Registration, version: UInt, in: Step)
    case registration(Registration, slowThreshold: Duration?)
    case missing
    case shutDown
}

/// How a resolve treats a key that nothing registers.
@usableFromInline
enum Miss: Sendable {
    /// An error with "did you mean" suggestions, reported to the diagnostics error hook.
    case fail
    /// `resolve(_:) -> T?` asking whether a service exists: `nil`, no suggestions, no report.
    case probe
}

extension Container {
    // MARK: Entry points

    /// The value of `type` (and `name`) as a `T`. Inlined into every public entry point, and from
    /// there into every call site: for a class `T` (decided when `T` is specialized), a call
    /// site is one call to the non-generic ``resolveClass(_:miss:)``, given `T`'s metadata,
    /// which hands back an instance of `T` (a cached instance of exactly `T`, found, checked and
    /// retained by the probe inlined there).
    ///
    /// Nothing of `T` beyond its metadata is left at the call site.
    // History: a generic function between the two, comparing the instance's class itself, made
    // one copy per class (2,000 for a graph of 2,000 classes), whose instruction cache misses
    // cost more than the compare saved; merged into one function again once the compare moved
    // into the non-generic probe, it cost a second call and stack frame per read, a tenth of a
    // cold build.
    @inlinable @inline(__always)
    func resolveSync<T: Sendable>(_ type: T.Type, name: String?, miss: Miss = .fail) throws(ResolutionError) -> T {
        if T.self is AnyObject.Type {
            // The unnamed key of `T` itself, as at almost every call site (decided there):
            // `T`'s metadata is all the call passes, and no key is made.
            if name == nil, ObjectIdentifier(type) == ObjectIdentifier(T.self) {
                return TrustedCasts.object(try resolveClass(T.self, miss: miss), as: T.self)
            }
            return TrustedCasts.object(
                try resolveObject(ServiceKey(type, name: name), ofClass: T.self, miss: miss), as: T.self)
        }
        return try resolveValue(ServiceKey(type, name: name), miss: miss)
    }

    /// ``resolveSync(_:name:miss:)`` for a `T` that is not a class (a value type, a protocol, a
    /// function), or for a key made elsewhere. Not inlined: one function per type, called from
    /// each site.
    @inlinable @inline(never)
    func resolveValue<T: Sendable>(_ key: ServiceKey, miss: Miss) throws(ResolutionError) -> T {
        try Self.cast(resolveAny(key, miss: miss, isPublished: true), key)
    }

    /// The instance of the class `type` for `key`: a cached instance of exactly `type` from
    /// the published table, else whatever ``resolveAny(_:miss:isPublished:)`` gives, checked
    /// to be an instance of `type` (``resolveUnpublishedObject(_:ofClass:miss:isPublished:)``).
    @usableFromInline
    func resolveObject(_ key: ServiceKey, ofClass type: Any.Type, miss: Miss) throws(ResolutionError) -> AnyObject {
        let published = snapshot.object(for: key, ofExactly: UInt(bitPattern: ObjectIdentifier(type)))
        if let object = published.object { return object }
        return try resolveUnpublishedObject(key, ofClass: type, miss: miss, isPublished: published.isPublished)
    }

    /// ``resolveObject(_:ofClass:miss:)`` for the unnamed key of the class `type`: the read every
    /// cached resolve makes.
    @usableFromInline
    func resolveClass(_ type: Any.Type, miss: Miss) throws(ResolutionError) -> AnyObject {
        let published = SnapshotSlot(of: self).object(forUnnamed: UInt(bitPattern: ObjectIdentifier(type)))
        if let object = published.object { return object }
        return try resolveUnpublishedObject(
            ServiceKey(type), ofClass: type, miss: miss, isPublished: published.isPublished)
    }

    /// ``resolveObject(_:ofClass:miss:)`` past the published table. Never inlined, so that the
    /// read of a cached instance saves no registers for it.
    @inline(never)
    private func resolveUnpublishedObject(_ key: ServiceKey, ofClass type: Any.Type, miss: Miss, isPublished: Bool)
        throws(ResolutionError) -> AnyObject
    {
        var value = try resolveAny(key, miss: miss, isPublished: isPublished)
        if let object = TrustedCasts.takeObject(&value, ofExactly: UInt(bitPattern: ObjectIdentifier(type))) {
            return object
        }
        // An instance of a subclass, say.
        func isInstance<Class>(_: Class.Type) -> Bool { value is Class }
        if let object = TrustedCasts.classInstance(value), _openExistential(type, do: isInstance) { return object }
        throw Self.mismatch(key, expected: type)
    }

    /// The `async` counterpart of ``resolveValue(_:miss:)``; a cached value needs no suspension.
    @inlinable
    func resolveValueAsync<T: Sendable>(_ key: ServiceKey) async throws(ResolutionError) -> T {
        if let object = publishedObject(key, ofExactly: T.self).object {
            return TrustedCasts.object(object, as: T.self)
        }
        return try Self.cast(await resolveAnyAsync(key), key)
    }

    /// The value for `key`, not yet cast to its type: the non-generic core. `isPublished` is
    /// what the caller's probe found (``resolveObject(_:ofClass:miss:)``'s), or `true` when it
    /// made none: whether the published table holds a value for `key` at all (if not, it is
    /// not probed again: a value published since is found under the lock).
    @usableFromInline
    func resolveAny(_ key: ServiceKey, miss: Miss, isPublished: Bool) throws(ResolutionError) -> any Sendable {
        // A published synchronous transient: run without taking the lock. Looked up first: a
        // cached instance of exactly the caller's class was served by its probe.
        if let (registration, owner) = snapshot.transient(for: key) {
            return try resolveTransient(key, registration, owner: owner, miss: miss)
        }
        if isPublished, let cached = snapshot.value(for: key) { return cached }
        return try resolveUncached(key, miss: miss)
    }

    /// ``resolveAny(_:miss:isPublished:)`` past the published cache. Never inlined, so that the cached
    /// path stays a small function.
    @inline(never)
    private func resolveUncached(_ key: ServiceKey, miss: Miss) throws(ResolutionError) -> any Sendable {
        let frame = FrameLink.current
        // A top-level resolve binds a `GraphScope` once `.graph` registrations exist: not here.
        guard frame != nil || !usesGraphScopes else {
            return try resolveLooked(key, miss: miss, frame: nil, step: nil)
        }
        // The step a creation of this container's own singleton starts in, on this stack.
        let id = ObjectIdentifier(self)
        return try StackFrame.run(key: key, owner: id, resolver: id, parent: frame) {
            (step) throws(ResolutionError) -> any Sendable in
            try resolveLooked(key, miss: miss, frame: frame, step: step)
        }
    }

    /// The synchronous engine past the published cache: one lock (``look(up:by:startingIn:)``),
    /// then what it found, the one synchronous switch over a lookup. `step` is where a creation
    /// of this container's own singleton may start (`nil`: none may start here). `nested`: the
    /// resolution of a `T?` resolving `T` in its own step, which reports nothing itself.
    @inline(__always)
    func resolveLooked(
        _ key: ServiceKey, miss: Miss, frame: FrameLink?, step: FrameLink?,
        arguments: (any Sendable)? = nil, nested: Bool = false
    ) throws(ResolutionError) -> any Sendable {
        // Destructured once here: passing the enum down would copy its payloads at every call.
        switch look(up: key, by: step.map(Creator.init), startingIn: { step }) {
        case .value(let value): return value
        case .started(let registration, let version, let step):
            return try create(key, registration, version: version, in: step, isOutermost: frame == nil, miss: miss)
        case .registration(let registration, let threshold):
            return try resolveFound(key, registration, threshold, frame: frame, miss: miss, arguments, nested)
        case .missing: return try resolveFound(key, nil, nil, frame: frame, miss: miss, arguments, nested)
        case .shutDown: throw nested ? .shutDown(key) : shutDownError(key, isOutermost: frame == nil)
        }
    }

    /// ``resolveLooked(_:miss:frame:step:arguments:nested:)`` for a registration found here
    /// (`local`) or not: the lean path for a plain resolve, the general one with `arguments`,
    /// in the step of a `T?` when `nested`.
    @inline(__always)
    private func resolveFound(
        _ key: ServiceKey, _ local: Registration?, _ threshold: Duration?, frame: FrameLink?, miss: Miss,
        _ arguments: (any Sendable)?, _ nested: Bool
    ) throws(ResolutionError) -> any Sendable {
        if nested {
            return try obtainSync(key, local: local, threshold, frame: frame, miss: miss, arguments: arguments)
        }
        guard let arguments else { return try resolveRegistered(key, local: local, threshold, miss: miss) }
        return try resolveGeneral(key, local: local, threshold, miss: miss, arguments: arguments)
    }

    /// Makes the value of `key` whose creation ``look(up:by:startingIn:)`` started in `step`: the
    /// cold path of a graph of singletons, one lock from the lookup to the factory, and the
    /// creator's step on its stack (copied to the heap only if another resolve comes to wait for
    /// it). `version` is the registrations' version when it started.
    private func create(
        _ key: ServiceKey, _ registration: Registration, version: UInt, in step: FrameLink, isOutermost: Bool,
        miss: Miss
    ) throws(ResolutionError) -> any Sendable {
        let creator = Creator(step)
        do throws(ResolutionError) {
            let made: any Sendable
            do throws(ResolutionError) {
                do {
                    made = try step.whileCurrent { try registration.runSync(Resolver(self)) }
                } catch {
                    throw Self.failure(error, key: key, frame: step)
                }
            } catch {
                _ = finish(creator, for: key, of: registration, outcome: .failure(error))
                throw error
            }
            let value = try finishMade(consume made, by: creator, for: key, of: registration, version: version)
            if !registration.onCreated.isEmpty {
                let found = Located(owner: self, registration: registration, resolver: self, threshold: nil)
                try Self.runHooks(of: found, on: value, key: key, path: step.parent?.path)
            }
            return value
        } catch {
            if isOutermost { throw outermost(error, of: key, miss: miss) }
            throw error
        }
    }

    /// The `async` counterpart of ``resolveAny(_:miss:isPublished:)``.
    @usableFromInline
    func resolveAnyAsync(_ key: ServiceKey) async throws(ResolutionError) -> any Sendable {
        // A published synchronous transient runs as it does for a synchronous resolve: without
        // the lock, on this thread, its frame on the stack (under the task's frame inside an
        // `async` factory). Its factory is neither `async` nor isolated, so it needs no hop;
        // an alias is left to the `async` engine, which awaits its target.
        if recorder == nil, let (registration, owner) = snapshot.transient(for: key),
            registration.runsWithoutLockFromAsync
        {
            return try resolveTransient(key, registration, owner: owner, miss: .fail)
        }
        if let cached = snapshot.value(for: key) { return cached }
        return try await resolveLookedAsync(key)
    }

    /// `value` as the `T` its key promises. An instance of exactly the class `T` is moved out of
    /// the existential (no retain, no release); a value of exactly another type `T` is copied
    /// out (a retain); either way without the runtime's dynamic cast, which costs more. Any
    /// other value is consumed by `as?`.
    @inlinable
    static func cast<T>(_ value: consuming any Sendable, _ key: ServiceKey) throws(ResolutionError) -> T {
        var boxed = value
        if let object = TrustedCasts.takeObject(&boxed, ofExactly: T.self) { return object }
        // Opened explicitly: an `any Sendable` is never opened implicitly (it is `Any`), and a
        // generic parameter would see the existential, not the type inside it.
        func exactlyT<Boxed>(_ value: Boxed) -> T? { TrustedCasts.exactly(value, as: T.self) }
        if let typed = _openExistential(boxed, do: exactlyT) { return typed }
        if let typed = boxed as? T { return typed }
        throw mismatch(key, expected: T.self)
    }

    /// The error for a value of another type than its key's: unreachable through the public API.
    @usableFromInline
    static func mismatch(_ key: ServiceKey, expected: Any.Type) -> ResolutionError {
        .factoryFailed(key, path: [], underlying: TypeMismatch(expected: expected))
    }

    /// ``resolveAny(_:miss:isPublished:)`` for a factory that takes `arguments`.
    @usableFromInline
    func resolveWithArguments(_ key: ServiceKey, arguments: any Sendable, miss: Miss) throws(ResolutionError)
        -> any Sendable
    {
        if let cached = snapshot.value(for: key) { return cached }
        return try resolveLooked(key, miss: miss, frame: FrameLink.current, step: nil, arguments: arguments)
    }

    /// ``resolveAnyAsync(_:)`` for a factory that takes `arguments`.
    @usableFromInline
    func resolveWithArgumentsAsync(_ key: ServiceKey, arguments: any Sendable) async throws(ResolutionError)
        -> any Sendable
    {
        if let cached = snapshot.value(for: key) { return cached }
        return try await resolveLookedAsync(key, arguments: arguments)
    }

    /// The cached class instance for `key` in the published snapshot if it is exactly of class
    /// `type` (its first word is `type`'s metadata): no lock, no runtime cast. Any other cached
    /// value (a subclass's instance, a value type) is left to ``resolveAny(_:miss:isPublished:)``,
    /// which casts it; `isPublished` says whether the table holds a value for `key` at all.
    @usableFromInline
    func publishedObject(_ key: ServiceKey, ofExactly type: Any.Type) -> (object: AnyObject?, isPublished: Bool) {
        snapshot.object(for: key, ofExactly: UInt(bitPattern: ObjectIdentifier(type)))
    }

    // MARK: Finding the registration

    /// One lock: a cached value here, or this container's registration for `key`; given a
    /// `creator`, for a synchronous singleton of this container that nothing made or is making,
    /// its creation started by `creator` instead, in the `step` it runs in
    /// (``Lookup/started(_:version:in:)``). The `async` engine gives no creator.
    @inline(__always)
    func look<Step>(up key: ServiceKey, by creator: Creator?, startingIn step: () -> Step?) -> Lookup<Step> {
        let recording = recorder != nil
        var trace: (@Sendable (ResolutionTrace) -> Void)?
        var lifetime: Lifetime?
        let lookup = state.withLock { state -> Lookup<Step> in
            if state.isShutDown { return .shutDown }
            // A cached value, or a weakly held one still alive: served under this one lock,
            // without locating its registration. Only strong values go to the snapshot.
            if !recording, let stored = state.cache.storedInstance(for: key), let value = stored.sendableValue {
                if case .strong = stored { state.publish(value, for: key, to: snapshot) }
                if let onResolution = state.diagnostics.onResolution {
                    (trace, lifetime) = (onResolution, state.registrations[key]?.lifetime)
                }
                return .value(value)
            }
            if let registration = state.registrations[key] {
                // Served under the lock: readers of the snapshot missed it.
                if !recording, registration.runsWithoutLock {
                    state.cache.noteLockedTransientHit(state.registrations, state.inherited, to: snapshot)
                }
                let threshold = state.diagnostics.timingThreshold
                // Unless it is in flight already, here or on the general path: then the general
                // path waits for it, or reports the cycle it closes. No walk up the path for a
                // cycle here: a step making this singleton is in the path only while its creation
                // is in flight. (Should its registration change while it runs, and the new one's
                // factory ask for it again, that cycle is found one step later, by the same walk.)
                if let creator, !recording, threshold == nil, registration.lifetime == .singleton, registration.isSync,
                    let step = step(), state.creations.start(registration, by: creator)
                {
                    return .started(registration, version: state.registrationsVersion, in: step)
                }
                return .registration(registration, slowThreshold: threshold)
            }
            return .missing
        }
        if trace != nil { traceCached(key, trace, lifetime: lifetime) }
        return lookup
    }

    /// The registration for `key` (this container's `local` one, else an ancestor's), its
    /// owner and the container its factory resolves from, after checking for a cycle; or, for
    /// `T?` with nothing registered for `T?` itself, `T`'s key to resolve in its place.
    /// `synchronously` says which engine asks, for the edge ``validate()`` records.
    func locate(
        _ key: ServiceKey, local: Registration?, _ localThreshold: Duration?, frame: FrameLink?, miss: Miss,
        synchronously: Bool
    ) throws(ResolutionError) -> Location {
        let owner: Container
        let registration: Registration
        let threshold: Duration?
        if let local {
            (owner, registration, threshold) = (self, local, localThreshold)
        } else if let (found, foundRegistration) = inheritedRegistration(for: key) {
            (owner, registration) = (found, foundRegistration)
            threshold = state.withLock { $0.diagnostics.timingThreshold }
        } else if let optional = key.type as? any OptionalType.Type {
            return .wrapped(ServiceKey(optional.wrappedType, name: key.name), optional)
        } else {
            let path = frame?.path ?? []
            if key.argumentsType != nil || miss == .fail || frame != nil, let other = registeredArguments(of: key) {
                throw Self.argumentMismatch(key, registered: other, path: path)
            }
            let suggestions = miss == .probe && frame == nil ? [] : suggestions(for: key)
            throw .notRegistered(key, path: path, suggestions: suggestions)
        }
        let located = Located(
            owner: owner, registration: registration, resolver: registration.lifetime.resolvesFromOwner ? owner : self,
            threshold: threshold)
        if let frame, let cycle = frame.cycle(closingAt: key, owner: located.ownerID, resolver: located.resolverID) {
            throw .circularDependency(cycle: cycle)
        }
        if let recorder {
            recorder.record(from: frame, to: located.registration, owner: located.ownerID, synchronously: synchronously)
        } else if registration.lifetime == .scoped, located.resolver.parent == nil {
            // Reached only when nothing is cached here: a value would be made in a root.
            try located.resolver.checkScope(of: key, path: frame?.path ?? [])
        }
        return .registration(located)
    }

    /// Whether `error` says that `wrapped` itself is not registered (not at all, or only with
    /// arguments), where a resolution whose path is `frame`'s looked for it: `T?` then gives
    /// `nil`. A missing dependency of `T` is not that, nor is a cycle or a failing factory.
    static func isMissing(_ wrapped: ServiceKey, _ error: ResolutionError, frame: FrameLink?) -> Bool {
        (error.code == .notRegistered || error.code == .argumentMismatch) && error.key == wrapped
            && error.path == (frame?.path ?? [])
    }

    /// The argument types another visible registration of `key`'s service and name takes
    /// (`Void` for none), when `key` itself is not registered.
    private func registeredArguments(of key: ServiceKey) -> Any.Type? {
        let service = key.withoutArguments
        guard let other = visibleRegistrations().keys.first(where: { $0 != key && $0.withoutArguments == service })
        else {
            return nil
        }
        return other.argumentsType ?? Void.self
    }

    /// The error for resolving `key` with other arguments than its registration takes.
    static func argumentMismatch(_ key: ServiceKey, registered: Any.Type, path: [ServiceKey]) -> ResolutionError {
        .argumentMismatch(
            key.withoutArguments, registered: registered, given: key.argumentsType ?? Void.self, path: path)
    }

    /// The error for a factory taking arguments reached without them (through ``validate()``).
    static func argumentMismatch(_ key: ServiceKey, given: Any.Type?) -> ResolutionError {
        .argumentMismatch(key.withoutArguments, registered: key.argumentsType ?? Void.self, given: given ?? Void.self)
    }

    /// The error of a resolve of `key` from this shut-down container, reported when the resolve
    /// is an outermost one (an inner one's error reaches the outermost, which reports it).
    @inline(never)
    func shutDownError(_ key: ServiceKey, isOutermost: Bool) -> ResolutionError {
        let error = ResolutionError.shutDown(key)
        if isOutermost { report(error) }
        return error
    }

    /// An error leaving an outermost resolve: with the registration sites of the keys it names,
    /// and reported, unless it is the miss a probe asked about (that stays as cheap as a miss).
    func outermost(_ error: ResolutionError, of key: ServiceKey? = nil, miss: Miss = .fail) -> ResolutionError {
        if miss == .probe, error.code == .notRegistered, error.key == key, error.path.isEmpty { return error }
        let error = sited(error)
        report(error, swallowed: miss == .probe)
        return error
    }

    /// `error` with where each key it names was registered, as seen from this container.
    func sited(_ error: ResolutionError) -> ResolutionError {
        var sites: [ServiceKey: RegistrationSite] = [:]
        for key in [error.key] + error.path + error.cycle where sites[key] == nil {
            if let site = registration(for: key)?.registration.site { sites[key] = site }
        }
        // An argument mismatch names the service without arguments; its registration has them.
        if error.code == .argumentMismatch, sites[error.key] == nil,
            let registered = visibleRegistrations().first(where: { $0.key.withoutArguments == error.key })
        {
            sites[error.key] = registered.value.site
        }
        return sites.isEmpty ? error : error.with(sites: sites)
    }
}

/// Where a resolution goes on from ``Container/locate(_:local:_:frame:miss:synchronously:)``.
enum Location {
    /// The registration that makes the value.
    case registration(Located)
    /// The key was `T?` and nothing registers `T?` itself: resolving it resolves `T` (the
    /// key given) in the same step of the path, and gives `nil` when nothing registers `T`.
    case wrapped(ServiceKey, any OptionalType.Type)
}

/// Where a resolution found its registration.
struct Located {
    /// The container holding the registration.
    let owner: Container
    let registration: Registration
    /// The container the factory resolves its dependencies from: the owner for singletons
    /// and weak services, the asking container for scoped and transient ones.
    let resolver: Container
    let threshold: Duration?

    var ownerID: ObjectIdentifier { ObjectIdentifier(owner) }
    var resolverID: ObjectIdentifier { ObjectIdentifier(resolver) }

    /// The container whose cache keeps values of the registration, or `nil` for transients.
    var cacheHolder: Container? {
        switch registration.lifetime {
        case .transient, .graph: nil
        case .singleton, .weak: owner
        case .scoped: resolver
        }
    }
}

extension Lifetime {
    /// Whether the factory resolves from the registering container rather than the asking one.
    var resolvesFromOwner: Bool { self == .singleton || self == .weak }
}

/// `Optional`, seen from a key's type: resolving `T?` gives the registered `T`, and a cached
/// factory's `nil` is not cached.
protocol OptionalType: SendableMetatype {
    static var wrappedType: Any.Type { get }
    /// `value` as this optional type, boxed; `nil` when it is not a `Wrapped`.
    static func wrap(_ value: (any Sendable)?) -> any Sendable
    var isNone: Bool { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }

    static func wrap(_ value: (any Sendable)?) -> any Sendable {
        // `Wrapped` is `Sendable` wherever this runs: keys are made from `T: Sendable` types.
        TrustedCasts.sendable(value as? Wrapped as Any)
    }

    var isNone: Bool { self == nil }
}

/// A cached value of another type than the key's: a broken invariant, reported, not trapped.
struct TypeMismatch: Error, CustomStringConvertible {
    let expected: Any.Type
    var description: String { "the value made for it is not a \(expected)" }
}
