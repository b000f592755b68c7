/// A registered factory and the lifetime of what it makes.
///
/// A class, though immutable: lookups copy it out of the lock on every uncached resolve, and
/// one retain is cheaper than copying a key, a name and a closure context.
///
/// Kept within the allocator's 96-byte class with its registration site: decorators and hooks
/// share the factory's storage (``Body``) instead of taking a field of their own, and the
/// site's line fills the padding after the lifetime (a layout test holds the size;
/// Tests/Benchmarks/README.md has the figures).
@usableFromInline
final class Registration: Sendable {
    @usableFromInline
    enum Factory: Sendable {
        case sync(@Sendable (Resolver) throws -> any Sendable)
        case async(@Sendable (Resolver) async throws -> any Sendable)
        /// Takes the resolve's arguments as one value, `A` or the tuple `(A, B)`, whose type is
        /// part of the key (see ``ArgumentsKey``).
        case syncArguments(@Sendable (Resolver, any Sendable) throws -> any Sendable)
        case asyncArguments(@Sendable (Resolver, any Sendable) async throws -> any Sendable)
        /// A synchronous factory that runs on the main actor only: the engine runs it in place
        /// where the resolve runs on the main actor, hops there for an `async` resolve, and
        /// throws ``ResolutionError/requiresIsolation(_:path:)`` for a synchronous one elsewhere.
        case mainActor(@Sendable (Resolver) throws -> any Sendable)
        case mainActorArguments(@Sendable (Resolver, any Sendable) throws -> any Sendable)
        /// An `async` factory that runs on the main actor: calling it hops there, so the engine
        /// runs it as any `async` factory; ``validate()`` knows where it runs.
        case mainActorAsync(@Sendable (Resolver) async throws -> any Sendable)
        case mainActorAsyncArguments(@Sendable (Resolver, any Sendable) async throws -> any Sendable)

        var isAsync: Bool {
            switch self {
            case .sync, .syncArguments, .mainActor, .mainActorArguments: false
            case .async, .asyncArguments, .mainActorAsync, .mainActorAsyncArguments: true
            }
        }

        /// Whether it runs on the main actor.
        var isMainActor: Bool {
            switch self {
            case .mainActor, .mainActorArguments, .mainActorAsync, .mainActorAsyncArguments: true
            case .sync, .syncArguments, .async, .asyncArguments: false
            }
        }

        /// This factory, of the same kind, with `instead` asked first (a value it gives is the
        /// result, and the factory does not run) and `then` applied to what the factory made:
        /// the one transform that decorators, `onCreated` hooks of transients and test values
        /// are written with, so that no caller switches over the eight kinds.
        func transformed(
            instead: @escaping @Sendable (Resolver) throws -> (any Sendable)? = { _ in nil },
            then: @escaping @Sendable (Resolver, any Sendable) throws -> any Sendable = { $1 }
        ) -> Factory {
            switch self {
            case .sync(let make):
                .sync { resolver in try instead(resolver) ?? then(resolver, try make(resolver)) }
            case .async(let make):
                .async { resolver in
                    if let value = try instead(resolver) { return value }
                    return try then(resolver, try await make(resolver))
                }
            case .syncArguments(let make):
                .syncArguments { resolver, arguments in
                    try instead(resolver) ?? then(resolver, try make(resolver, arguments))
                }
            case .asyncArguments(let make):
                .asyncArguments { resolver, arguments in
                    if let value = try instead(resolver) { return value }
                    return try then(resolver, try await make(resolver, arguments))
                }
            case .mainActor(let make):
                .mainActor { resolver in try instead(resolver) ?? then(resolver, try make(resolver)) }
            case .mainActorArguments(let make):
                .mainActorArguments { resolver, arguments in
                    try instead(resolver) ?? then(resolver, try make(resolver, arguments))
                }
            case .mainActorAsync(let make):
                .mainActorAsync { resolver in
                    if let value = try instead(resolver) { return value }
                    return try then(resolver, try await make(resolver))
                }
            case .mainActorAsyncArguments(let make):
                .mainActorAsyncArguments { resolver, arguments in
                    if let value = try instead(resolver) { return value }
                    return try then(resolver, try await make(resolver, arguments))
                }
            }
        }
    }

    /// Runs once for each created value of a cached lifetime, after the value is cached.
    @usableFromInline typealias Hook = @Sendable (Resolver, any Sendable) throws -> Void

    /// A plain registration's factory, or for one with decorators or hooks, those and the
    /// factory that runs them. The same 17 bytes as a ``Factory``: the enum's spare tag values
    /// tell the cases apart.
    @usableFromInline
    enum Body: Sendable {
        case plain(Factory)
        case extended(Extras)
    }

    /// A registration's decorated factory and its `onCreated` hooks, or an `also:` alias's two
    /// ways of resolving its target.
    @usableFromInline
    final class Extras: Sendable {
        /// What the engine runs: ``made``, and for a transient its ``onCreated`` hooks too.
        let factory: Factory
        let made: Factory
        let onCreated: [Hook]
        /// What the `async` engine runs instead of ``factory``, if anything: an alias resolves
        /// its target the way it was asked, so that the target's own rules apply.
        let asynchronous: Factory?
        init(factory: Factory, made: Factory, onCreated: [Hook], asynchronous: Factory? = nil) {
            self.factory = factory
            self.made = made
            self.onCreated = onCreated
            self.asynchronous = asynchronous
        }
    }

    // Stored in this order so that little is padded, 17 + 1 (+ 2) + 4 + 32 + 16 bytes after the
    // 16-byte header, and so that what a resolve reads (the factory and the lifetime, beside the
    // reference count) shares the object's first 64 bytes, one cache line: a graph built cold
    // reads one line of each registration, not two.
    @usableFromInline let body: Body
    @usableFromInline let lifetime: Lifetime
    /// Whether the key's type is a class: a value made for the key whose boxed type is the
    /// key's type is then a class instance, which the cold path tells from the boxed type's
    /// address alone, without reading the type's metadata. Set where the type is known
    /// statically (`T.self is AnyObject.Type`, decided when `T` is specialized); `false`
    /// leaves only the general path. In the padding after ``lifetime``.
    @usableFromInline let keyTypeIsClass: Bool
    /// Where it was registered: `line` and `fileID` of the `register` call (an empty `fileID`
    /// for none), kept apart so the object stays in the allocator's 96-byte class.
    @usableFromInline let line: UInt32
    @usableFromInline let key: ServiceKey
    @usableFromInline let fileID: String

    /// Whether a resolve may run it from a published snapshot, without the container's lock: a
    /// synchronous transient (its hooks run inside ``factory``).
    var runsWithoutLock: Bool {
        guard lifetime == .transient, case .sync = factory else { return false }
        return true
    }

    /// Whether an `async` resolve may run it as a synchronous resolve does, from the published
    /// snapshot: ``runsWithoutLock``, and not an alias, whose `await` form awaits its target.
    var runsWithoutLockFromAsync: Bool {
        switch body {
        case .plain: runsWithoutLock
        case .extended(let extras): extras.asynchronous == nil && runsWithoutLock
        }
    }

    /// What the engine runs: ``made``, and for a transient its ``onCreated`` hooks too.
    var factory: Factory {
        switch body {
        case .plain(let factory): factory
        case .extended(let extras): extras.factory
        }
    }

    /// Whether ``factory`` is synchronous, neither isolated nor taking arguments (`.sync`).
    var isSync: Bool {
        switch body {
        case .plain(.sync): true
        case .plain: false
        case .extended(let extras): if case .sync = extras.factory { true } else { false }
        }
    }

    /// Runs ``factory``, which ``isSync`` says is `.sync`, without copying it out first.
    @inline(__always)
    func runSync(_ resolver: Resolver) throws -> any Sendable {
        switch body {
        case .plain(.sync(let make)): return try make(resolver)
        case .extended(let extras): if case .sync(let make) = extras.factory { return try make(resolver) }
        case .plain: break
        }
        throw TypeMismatch(expected: Void.self)
    }

    /// The factory with its decorators, without hooks.
    var made: Factory {
        switch body {
        case .plain(let factory): factory
        case .extended(let extras): extras.made
        }
    }

    /// `onCreated` hooks, in the order they were added. The engine runs them for cached
    /// lifetimes once the value is cached; a transient's run inside its ``factory``, so that
    /// the transient resolve path never looks here.
    var onCreated: [Hook] {
        switch body {
        case .plain: []
        case .extended(let extras): extras.onCreated
        }
    }

    @inlinable
    init(
        key: ServiceKey, lifetime: Lifetime, factory: Factory, site: RegistrationSite? = nil,
        keyTypeIsClass: Bool = false
    ) {
        self.key = key
        self.body = .plain(factory)
        self.lifetime = lifetime
        self.keyTypeIsClass = keyTypeIsClass
        self.line = UInt32(clamping: site?.line ?? 0)
        self.fileID = site?.fileID ?? ""
    }

    init(
        key: ServiceKey, lifetime: Lifetime, made: Factory, onCreated: [Hook], site: RegistrationSite?,
        keyTypeIsClass: Bool
    ) {
        self.key = key
        let factory = lifetime == .transient && !onCreated.isEmpty ? Self.running(onCreated, after: made) : made
        self.body = .extended(Extras(factory: factory, made: made, onCreated: onCreated))
        self.lifetime = lifetime
        self.keyTypeIsClass = keyTypeIsClass
        self.line = UInt32(clamping: site?.line ?? 0)
        self.fileID = site?.fileID ?? ""
    }

    /// Where it was registered, if known.
    var site: RegistrationSite? {
        fileID.isEmpty ? nil : RegistrationSite(fileID: fileID, line: Int(line))
    }

    /// A transient that resolves `target`: synchronously where it is resolved synchronously,
    /// with `await` where it is resolved with `await` (`register(_:also:)`).
    init(key: ServiceKey, forwardingTo target: ServiceKey, site: RegistrationSite? = nil) {
        self.key = key
        let synchronous = Factory.sync { resolver in
            try resolver.container.resolveValue(target, miss: .fail) as any Sendable
        }
        let asynchronous = Factory.async { resolver in
            try await resolver.container.resolveValueAsync(target) as any Sendable
        }
        self.body = .extended(
            Extras(factory: synchronous, made: synchronous, onCreated: [], asynchronous: asynchronous))
        self.lifetime = .transient
        self.keyTypeIsClass = false
        self.line = UInt32(clamping: site?.line ?? 0)
        self.fileID = site?.fileID ?? ""
    }

    /// This registration with another lifetime.
    func withLifetime(_ lifetime: Lifetime) -> Registration {
        switch body {
        case .plain(let factory):
            Registration(key: key, lifetime: lifetime, factory: factory, site: site, keyTypeIsClass: keyTypeIsClass)
        case .extended(let extras) where extras.asynchronous != nil: self
        case .extended(let extras):
            Registration(
                key: key, lifetime: lifetime, made: extras.made, onCreated: extras.onCreated, site: site,
                keyTypeIsClass: keyTypeIsClass)
        }
    }

    /// What the `async` engine runs: ``factory``, or an alias's `await` of its target.
    var asynchronousFactory: Factory {
        switch body {
        case .plain(let factory): factory
        case .extended(let extras): extras.asynchronous ?? extras.factory
        }
    }

    /// `made` followed by `hooks`, on the resolver the factory got.
    private static func running(_ hooks: [Hook], after made: Factory) -> Factory {
        made.transformed(then: { resolver, value in
            for hook in hooks { try hook(resolver, value) }
            return value
        })
    }

    var isAsync: Bool { factory.isAsync }

    /// Whether its factory runs on the main actor.
    var isMainActor: Bool { factory.isMainActor }
}

/// A created value the container keeps.
enum StoredInstance {
    case strong(any Sendable)
    case weak(WeakReference)

    /// The value, unless it was held weakly and has been released.
    @inline(__always)
    var value: Any? {
        switch self {
        case .strong(let value): value
        case .weak(let reference): reference.object
        }
    }

    /// Whether the value is held strongly (and so may be published for lock-free reads).
    var isStrong: Bool {
        if case .strong = self { true } else { false }
    }

    /// The value as stored, unless it was held weakly and has been released.
    var sendableValue: (any Sendable)? {
        switch self {
        case .strong(let value): value
        case .weak(let reference): reference.value
        }
    }

    /// Keeps `value` weakly if it is a class instance; a value type cannot be held weakly.
    static func weakly(_ value: any Sendable) -> StoredInstance? {
        TrustedCasts.classInstance(value).map { .weak(WeakReference($0)) }
    }
}

/// A weak reference, only ever touched under its container's lock.
final class WeakReference {
    private(set) weak var object: AnyObject?
    init(_ object: any AnyObject & Sendable) { self.object = object }

    /// The object, as the `Sendable` value it was stored as.
    var value: (any Sendable)? {
        // `object` was made from a Sendable value in `init`; only its static type was lost.
        object.map(TrustedCasts.sendable)
    }
}
