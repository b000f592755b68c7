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
    /// A factory: its code, synchronous or `async`, and two traits. Each transform of a factory
    /// (``transformed(instead:then:)``) is written once for each kind of code, whatever the
    /// traits.
    @usableFromInline
    struct Factory: Sendable {
        /// What makes the value, given the resolver and the resolve's arguments: one value, `A`
        /// or the tuple `(A, B)`, whose type is part of the key (see ``ArgumentsKey``), or `nil`
        /// for a factory that takes none.
        @usableFromInline
        enum Code: Sendable {
            case sync(@Sendable (Resolver, (any Sendable)?) throws -> any Sendable)
            case async(@Sendable (Resolver, (any Sendable)?) async throws -> any Sendable)
        }

        /// How the engine runs the code. One byte, so that a registration stays within the
        /// allocator's 96-byte class.
        @usableFromInline
        struct Traits: OptionSet, Sendable {
            @usableFromInline let rawValue: UInt8
            @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
            /// Takes the resolve's arguments: a resolve without them is an argument mismatch.
            @usableFromInline static let takesArguments = Traits(rawValue: 1)
            /// Runs on the main actor only. A synchronous one runs in place where the resolve
            /// runs on the main actor, hops there for an `async` resolve, and throws
            /// ``ResolutionError/requiresIsolation(_:path:)`` for a synchronous one elsewhere;
            /// an `async` one hops there when called, so the engine runs it as any `async`
            /// factory, and ``validate()`` knows where it runs.
            @usableFromInline static let mainActor = Traits(rawValue: 2)
            /// Chooses, when it runs, between a live value and a test double by the contexts of
            /// the container holding it (`.liveOnly()`, `.testValue`): a change of those
            /// contexts forgets the values it made there.
            @usableFromInline static let readsContexts = Traits(rawValue: 4)
        }

        @usableFromInline let code: Code
        @usableFromInline let traits: Traits

        /// The arguments of a resolve that gives none, borrowed where a factory is called: a
        /// `nil` made at each call is destroyed after it through the runtime's value witnesses
        /// (a transient resolve cost 979 instructions so, 914 borrowing this).
        static let noArguments: (any Sendable)? = nil

        @inlinable
        init(_ code: Code, _ traits: Traits = []) {
            self.code = code
            self.traits = traits
        }

        /// A synchronous factory without traits.
        @inlinable
        static func sync(_ make: @escaping @Sendable (Resolver, (any Sendable)?) throws -> any Sendable) -> Factory {
            Factory(.sync(make))
        }

        /// An `async` factory without traits.
        @inlinable
        static func async(_ make: @escaping @Sendable (Resolver, (any Sendable)?) async throws -> any Sendable)
            -> Factory
        {
            Factory(.async(make))
        }

        var isAsync: Bool {
            if case .async = code { true } else { false }
        }

        /// Whether it runs on the main actor.
        var isMainActor: Bool { traits.contains(.mainActor) }

        /// Whether it takes the resolve's arguments.
        var takesArguments: Bool { traits.contains(.takesArguments) }

        /// This factory, with the same traits and those `added`, with `instead` asked first (a value it gives is
        /// the result, and the factory does not run) and `then` applied to what the factory
        /// made: the one transform that decorators, `onCreated` hooks of transients and test
        /// values are written with.
        func transformed(
            instead: @escaping @Sendable (Resolver) throws -> (any Sendable)? = { _ in nil },
            then: @escaping @Sendable (Resolver, any Sendable) throws -> any Sendable = { $1 },
            adding added: Traits = []
        ) -> Factory {
            let traits = traits.union(added)
            return switch code {
            case .sync(let make):
                Factory(
                    .sync { resolver, arguments in
                        try instead(resolver) ?? then(resolver, try make(resolver, arguments))
                    }, traits)
            case .async(let make):
                Factory(
                    .async { resolver, arguments in
                        if let value = try instead(resolver) { return value }
                        return try then(resolver, try await make(resolver, arguments))
                    }, traits)
            }
        }
    }

    /// Runs once for each created value of a cached lifetime, after the value is cached.
    @usableFromInline typealias Hook = @Sendable (Resolver, any Sendable) throws -> Void

    /// A plain registration's factory, or for one with decorators or hooks, those and the
    /// factory that runs them. The same 18 bytes as a ``Factory``: the spare values of its code's tag
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

    // Stored in this order so that nothing is padded, 18 + 1 + 1 + 4 + 32 + 16 bytes after the
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
        lifetime == .transient && isSync
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

    /// Whether ``factory`` is synchronous, neither isolated nor taking arguments: what runs in
    /// place, on any thread, without arguments.
    var isSync: Bool {
        switch body {
        case .plain(let factory): if case .sync = factory.code { factory.traits.isEmpty } else { false }
        case .extended(let extras): if case .sync = extras.factory.code { extras.factory.traits.isEmpty } else { false }
        }
    }

    /// Runs ``factory``, which ``isSync`` says is synchronous without traits, without copying
    /// it out first.
    @inline(__always)
    func runSync(_ resolver: Resolver) throws -> any Sendable {
        switch body {
        case .plain(let factory):
            if case .sync(let make) = factory.code { return try make(resolver, Factory.noArguments) }
        case .extended(let extras):
            if case .sync(let make) = extras.factory.code { return try make(resolver, Factory.noArguments) }
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
        let synchronous = Factory.sync { resolver, _ in
            try resolver.container.resolveValue(target, miss: .fail) as any Sendable
        }
        let asynchronous = Factory.async { resolver, _ in
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
