import Logging
import WeftPrimitives

/// A dependency-injection container: registrations of factories, resolved lazily.
///
/// ```swift
/// let container = Container()
/// container.register(Logger.self, lifetime: .singleton) { ConsoleLogger() }
/// container.register(UserService.self) { resolver in
///     UserService(logger: try resolver.resolve(Logger.self))
/// }
/// let service = container.resolve(UserService.self)   // UserService?
/// let checked = try container.require(UserService.self) // throws ResolutionError
/// ```
///
/// Factories run when a service is first needed, never at registration, and never while a
/// lock is held: a slow or re-entrant factory does not block other resolutions. Cycles are
/// reported as ``ResolutionError/circularDependency(cycle:)`` with the full path.
///
/// Containers form a tree: a child (``init(parent:)``, ``createScope()``) resolves what it does
/// not register from its parent, and its own registrations override the parent's.
public final class Container: Sendable {
    /// The two words lock-free readers load (see ``SnapshotSlot``). The first stored property,
    /// so at a fixed offset from the container's address: read and written only through
    /// ``snapshot``, atomically, never by name (a test checks that the field declared next
    /// comes right after it, as declaration order lays a final class out).
    private let publishedWords = PublishedWords()

    /// The container this one falls back to, if any.
    let parent: Container?

    let state: Locked<State>
    /// Cached values and synchronous transient registrations readable without the lock (see
    /// ``CacheTable`` and ``TransientTable``), published in ``publishedWords``.
    @inline(__always)
    var snapshot: SnapshotSlot { SnapshotSlot(of: self) }
    /// Records discovered edges; only the throwaway copies made by ``validate()`` have one.
    let recorder: EdgeRecorder?

    struct State {
        var registrations: [ServiceKey: Registration] = [:] {
            didSet {
                registrationsVersion &+= 1
                registrationCount = registrations.count
            }
        }
        /// How many ``registrations`` there are: what the first cached value reserves room for.
        /// Kept apart, so that caching a value reads a word, not the dictionary.
        private(set) var registrationCount = 0
        /// Changes whenever ``registrations`` does: a creation that started at the same version
        /// knows its registration is still current without looking it up again.
        private(set) var registrationsVersion: UInt = 0
        /// The values being made right now, by registration: who makes each, and the
        /// ``Creation`` others wait on once someone does.
        var creations = CreationsInFlight()
        var diagnostics: Diagnostics
        /// The values cached here, and what lock-free readers see of them.
        var cache: CachedValues
        /// Scopes and children made from this container, which may cache values of its
        /// registrations: replacing one forgets their values too.
        var children = Children()
        /// How many ``Staging``s are open on this container: while any is, registering asks
        /// whether the registering task stages.
        var openStagings = 0
        /// Names of the modules ``install(_:)`` configured here.
        var installedModules: Set<String> = []
        /// The modules ``install(_:)`` configured here, in order: their requirements, which
        /// ``validate()`` checks again.
        var modules: [InstalledModule] = []
        /// Which module registered each key whose registration here a module's
        /// ``Module/configure(_:)`` made (a `register` outside modules forgets it): what
        /// ``install(_:)`` checks duplicates against and ``validate()`` reports. Never read by
        /// a resolve.
        var provenance: [ServiceKey: Provenance] = [:]
        /// What start-up makes, and when (``Container/startup``). Never read by a resolve.
        var startup: StartupDeclaration?
        /// Keys registered again here, replacing this container's own registration of them: the
        /// earlier one's site and module, and the registration that replaced it. What
        /// ``validate()`` warns of while that registration is still in force and came from the
        /// same place (outside modules, or the same module). Never read by a resolve.
        var replaced: [ServiceKey: Replaced] = [:]
        /// The contributions made here, by their collection's ``Contribution`` type, in the
        /// order they were made; a contribution's registration may since have been removed, or
        /// never applied (a failed `install`), so a reader keeps those still registered.
        var contributions: [ObjectIdentifier: [Contributed]] = [:]
        /// Ancestors' registrations this container resolved, remembered so that a deep scope
        /// finds them under one lock instead of one per ancestor. Forgotten whenever an
        /// ancestor changes the key (``forgetInDescendants(_:)``).
        var inherited: [ServiceKey: InheritedRegistration] = [:]
        /// The disposal the first ``shutdown()`` or ``shutdown(deadline:clock:)`` started; set
        /// once, never cleared.
        var shutdown: Disposal?
        var isShutDown: Bool { shutdown != nil }
        var defaultLifetime = Lifetime.transient
        /// The contexts whose registrations apply (see ``Container/contexts``).
        var contexts: Set<Context> = []
        /// Every registration of a key that has one for a context or an override in force: the
        /// effective one is in ``registrations``, chosen by ``Variants/effective(in:)``.
        var variants: [ServiceKey: Variants] = [:]

        init(
            registrations: [ServiceKey: Registration] = [:], diagnostics: Diagnostics,
            cache: CachedValues = CachedValues()
        ) {
            (self.registrations, self.diagnostics, self.cache) = (registrations, diagnostics, cache)
            registrationCount = registrations.count
        }

        /// The value cached for `registration`'s key once it changed the key's registration in
        /// force: `instance`, for an `instance:` registration that is in force; else none, as
        /// after ``Container/shutdown()``, when a container holds nothing. An `owned` instance
        /// kept here is disposed at shutdown with the values this container created.
        mutating func keepValue(_ instance: (any Sendable)?, of registration: Registration, owned: Bool = false) {
            let key = registration.key
            if let instance, registrations[key] === registration, !isShutDown {
                cache.setInstance(.strong(instance), for: key)
                if owned { cache.appendDisposable(instance, for: key) }
            } else {
                cache.setInstance(nil, for: key)
            }
        }

        /// `value`, cached strongly for `key`, found under the lock: published, if readers of
        /// the table missed it.
        mutating func publish(_ value: any Sendable, for key: ServiceKey, to snapshot: SnapshotSlot) {
            cache.publishFound(value, for: key, registrations: registrationCount, to: snapshot)
        }

        /// How many resolves wait for the creation in flight here of `key`'s registration in
        /// force (this container's, else the ancestor's it remembered), if any: for tests.
        func waiterCount(of key: ServiceKey) -> Int {
            guard let registration = registrations[key] ?? inherited[key]?.registration else { return 0 }
            return creations.waiterCount(of: registration)
        }

        /// Forgets the value cached for each of `keys` and publishes a snapshot without them.
        /// - Returns: Whether this stopped lock-free reads (see ``CachedValues``).
        @inline(__always)
        mutating func forget(_ keys: some Sequence<ServiceKey>, in slot: SnapshotSlot) -> Bool {
            // Nothing cached nor published, as while a container is being set up: nothing to do.
            guard !cache.isBare else { return false }
            return cache.forget(keys, registrations, inherited, in: slot)
        }

        /// The values of `keys` were replaced by ``keepValue(_:of:owned:)``: readers must not
        /// see the old ones.
        /// - Returns: Whether this stopped lock-free reads.
        @inline(__always)
        mutating func invalidate(_ keys: some Sequence<ServiceKey>, in slot: SnapshotSlot) -> Bool {
            guard !cache.isBare else { return false }
            return cache.invalidate(keys, registrations, inherited, in: slot)
        }
    }

    /// Creates an empty container, optionally the child of `parent`.
    ///
    /// A child inherits its parent's ``diagnostics`` settings, default lifetime and
    /// ``contexts`` at creation; a root starts with ``Context/defaults``.
    public init(parent: Container? = nil) {
        self.parent = parent
        self.recorder = nil
        let diagnostics = parent?.diagnostics ?? Diagnostics()
        var state = State(
            diagnostics: diagnostics, cache: CachedValues(publishesTransients: diagnostics.timingThreshold == nil))
        if let parent {
            (state.defaultLifetime, state.contexts) = parent.state.withLock { ($0.defaultLifetime, $0.contexts) }
        } else {
            state.contexts = Context.defaults
        }
        self.state = Locked(state)
        parent?.adopt(self)
        // After the adoption: a `.graph` registration the parent notes from now on reaches this child.
        if parent?.usesGraphScopes == true { snapshot.noteGraphRegistrations() }
    }

    /// A throwaway copy for ``validate()``: `registrations` and their `contributions` under
    /// `parent`, recording edges.
    init(
        copying registrations: [ServiceKey: Registration], contributions: [ObjectIdentifier: [Contributed]],
        parent: Container?, recorder: EdgeRecorder
    ) {
        self.parent = parent
        self.recorder = recorder
        // A validation copy records every step: nothing runs past its lock.
        var state = State(registrations: registrations, diagnostics: Diagnostics(), cache: .unpublished)
        state.contributions = contributions
        self.state = Locked(state)
        if parent?.usesGraphScopes == true || registrations.values.contains(where: { $0.lifetime == .graph }) {
            snapshot.noteGraphRegistrations()
        }
    }

    /// A new scope: a child container in which `.scoped` services are created once and shared.
    public func createScope() -> Container {
        Container(parent: self)
    }

    // MARK: - Registering

    /// Registers a factory that needs nothing from the container.
    ///
    /// The factory runs on resolve, not now. Registering a key again replaces the earlier
    /// registration and forgets the value it cached, here and in every scope below (a value
    /// that was already read lock-free is released with the container rather than at once).
    ///
    /// ```swift
    /// container.register(Cat.self, lifetime: .singleton, also: (any Animal).self) { Cat() }
    ///     .onCreated { resolver, cat in cat.owner = try resolver.resolve(Person.self) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type resolved; also the key, with `name`.
    ///   - name: Tells apart several registrations of one type, e.g. `"audit"`.
    ///   - lifetime: How long a made value is shared; the container's ``defaultLifetime``
    ///     (``Lifetime/transient`` unless set) when `nil`.
    ///   - also: More types that resolve to the same value, e.g. a protocol it conforms to:
    ///     one registration, one cached value, several keys.
    ///   - context: Makes this registration apply only while `context` is one of the
    ///     container's ``contexts`` (e.g. ``Context/test``); the registration without a context
    ///     applies otherwise.
    ///   - file: Where the registration is written (`#fileID`), named by errors and
    ///     ``validate()``'s problems. Leave the default; a wrapper passes its caller's.
    ///   - line: The line of the registration (`#line`).
    ///   - factory: Makes the value.
    /// - Returns: The registration, to add ``Registered/onCreated(_:)`` hooks and
    ///   ``Registered/decorated(_:)`` decorators to.
    @inlinable
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        also: Any.Type...,
        when context: Context? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> Registered<T> {
        Registered(
            self,
            add(
                ServiceKey(type, name: name), lifetime, .sync { _, _ in try factory() }, also: also, context: context,
                site: RegistrationSite(fileID: file, line: Int(line)), keyTypeIsClass: T.self is AnyObject.Type))
    }

    /// Registers a factory that resolves its dependencies through `resolver`.
    @inlinable
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        also: Any.Type...,
        when context: Context? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver) throws -> T
    ) -> Registered<T> {
        Registered(
            self,
            add(
                ServiceKey(type, name: name), lifetime, .sync { resolver, _ in try factory(resolver) }, also: also,
                context: context,
                site: RegistrationSite(fileID: file, line: Int(line)), keyTypeIsClass: T.self is AnyObject.Type))
    }

    /// Registers an `async` factory; resolve it with `try await resolver.resolve(_:)` or
    /// ``resolveAsync(_:name:file:line:)``.
    @inlinable
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        also: Any.Type...,
        when context: Context? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver) async throws -> T
    ) -> Registered<T> {
        Registered(
            self,
            add(
                ServiceKey(type, name: name), lifetime, .async { resolver, _ in try await factory(resolver) },
                also: also, context: context,
                site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// Registers an existing value, shared by every resolve.
    @inlinable
    public func register<T: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, also: Any.Type..., instance: T,
        file: String = #fileID, line: UInt = #line
    ) {
        let key = ServiceKey(type, name: name)
        let site = RegistrationSite(fileID: file, line: Int(line))
        add(
            Registration(key: key, lifetime: .singleton, factory: .sync { _, _ in GivenValue(instance) }, site: site),
            instance: instance)
        for forwarded in also { add(Self.forwarding(ServiceKey(forwarded, name: name), to: key, site: site)) }
    }

    /// Registers an existing value and takes ownership of it: shared by every resolve, as an
    /// `instance:` registration is, and disposed by ``shutdown()`` when it is ``Disposable``.
    ///
    /// Use it for a resource that start-up opened itself, a connection pool say, so that the
    /// container that hands it out also closes it:
    ///
    /// ```swift
    /// let pool = try await DatabasePool.open(settings.databaseURL)
    /// container.register(DatabasePool.self, owning: pool)
    /// // …
    /// try await container.shutdown()   // closes the pool, after what was made later
    /// ```
    ///
    /// The value counts as made now: ``shutdown()`` disposes it in reverse order with the
    /// values the container creates, so a service made later from it is disposed first. It
    /// stays the container's until then, even if its registration is replaced. A value that is
    /// not ``Disposable`` has nothing to dispose: the container's logger warns. Registered
    /// inside ``update(_:)`` or ``install(_:)``, it is owned once the staging applies; on a
    /// container that was shut down, it stays the caller's.
    @inlinable
    public func register<T: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, also: Any.Type..., owning value: T,
        file: String = #fileID, line: UInt = #line
    ) {
        let key = ServiceKey(type, name: name)
        let site = RegistrationSite(fileID: file, line: Int(line))
        if !(value is any Disposable) { warnNotDisposable(key, site: site) }
        add(
            Registration(key: key, lifetime: .singleton, factory: .sync { _, _ in GivenValue(value) }, site: site),
            instance: value, owned: true)
        for forwarded in also { add(Self.forwarding(ServiceKey(forwarded, name: name), to: key, site: site)) }
    }

    /// Warns that an `owning:` registration has nothing to dispose.
    @usableFromInline
    func warnNotDisposable(_ key: ServiceKey, site: RegistrationSite) {
        diagnostics.logger.warning(
            """
            \(key) (registered at \(site)) is registered with `owning:` but is not Disposable: \
            shutdown() has nothing to dispose. Adopt Disposable, or register it with `instance:`.
            """,
            metadata: ["weft.key": "\(key)"])
    }

    /// The lifetime of registrations that name none. ``Lifetime/transient`` unless set;
    /// children and scopes start with their parent's.
    public var defaultLifetime: Lifetime {
        get { state.withLock { $0.defaultLifetime } }
        set { state.withLock { $0.defaultLifetime = newValue } }
    }

    /// Adds a registration of `factory` for `key`, and one forwarding to it for each of `also`.
    @usableFromInline
    func add(
        _ key: ServiceKey, _ lifetime: Lifetime?, _ factory: Registration.Factory, also: [Any.Type] = [],
        context: Context? = nil, site: RegistrationSite, keyTypeIsClass: Bool = false
    ) -> Registration {
        let registration: Registration
        if let context {
            registration = Registration(
                key: key, lifetime: lifetime ?? defaultLifetime, factory: factory, site: site,
                keyTypeIsClass: keyTypeIsClass)
            if registration.lifetime == .graph { noteGraphRegistration() }
            add(Staging.Entry(registration: registration, instance: nil, context: context))
        } else {
            // The default lifetime is read under the lock `add` takes anyway: one lock per registration.
            let made = Registration(
                key: key, lifetime: lifetime ?? .transient, factory: factory, site: site,
                keyTypeIsClass: keyTypeIsClass)
            registration = add(made, usesDefaultLifetime: lifetime == nil) ?? made
        }
        for forwarded in also {
            add(Self.forwarding(ServiceKey(forwarded, name: key.name), to: key, site: site))
        }
        return registration
    }

    /// A registration of `key` that resolves `target` and hands its value out: the value is
    /// cached (or not) by `target`'s lifetime alone, and `target`'s own rules apply (a
    /// synchronous resolve of the alias resolves `target` synchronously, an `async` one with
    /// `await`), whatever `target`'s registration is now or later.
    @usableFromInline
    static func forwarding(_ key: ServiceKey, to target: ServiceKey, site: RegistrationSite?) -> Registration {
        Registration(key: key, forwardingTo: target, site: site)
    }

    /// Adds `registration`, forgetting any value cached for its key, or stages it when the
    /// calling task is inside ``update(_:)`` or ``install(_:)`` of this container.
    ///
    /// With `usesDefaultLifetime`, the registration takes ``defaultLifetime`` instead of its own.
    /// - Returns: The registration added in place of `registration`, one with the default
    ///   lifetime; `nil` when `registration` itself was added (no retain for the common case).
    @usableFromInline
    @discardableResult
    func add(_ registration: Registration, usesDefaultLifetime: Bool = false) -> Registration? {
        if registration.lifetime == .graph, !usesDefaultLifetime { noteGraphRegistration() }
        var replacement: Registration?
        change(CollectionOfOne(registration.key)) { state in
            guard usesDefaultLifetime, state.defaultLifetime != registration.lifetime else {
                return put(registration, context: nil, in: &state) ? .given : .none
            }
            let adjusted = registration.withLifetime(state.defaultLifetime)
            replacement = adjusted
            return put(adjusted, context: nil, in: &state) ? .given : .none
        }
        // `.graph` as the default lifetime: known under the lock, noted below after it.
        if replacement?.lifetime == .graph { noteGraphRegistrationInDescendants() }
        return replacement
    }

    /// Adds `registration` with `instance` as its value, already cached; an `owned` one is
    /// disposed at shutdown.
    @usableFromInline
    func add(_ registration: Registration, instance: any Sendable, owned: Bool = false) {
        add(Staging.Entry(registration: registration, instance: instance, context: nil, owned: owned))
    }

    /// Adds `entry`: a registration for a context, or one with its instance.
    private func add(_ entry: Staging.Entry) {
        change(CollectionOfOne(entry.registration.key)) { state in
            guard put(entry.registration, context: entry.context, in: &state, staging: entry) else { return .none }
            // A factory's value is forgotten; an `instance:` registration's is set in its place.
            guard let instance = entry.instance else { return .given }
            state.keepValue(instance, of: entry.registration, owned: entry.owned)
            return .given(replacesValue: true)
        }
    }

    /// Puts `registration` in force under the lock, for `context` if given, or stages it
    /// (as `staging`, or as a plain entry) when the calling task is inside ``update(_:)`` or
    /// ``install(_:)`` of this container: every way of registering, one function.
    /// - Returns: Whether the registration this container resolves the key with changed.
    @inline(__always)
    private func put(
        _ registration: Registration, context: Context?, in state: inout State,
        staging entry: @autoclosure () -> Staging.Entry? = nil
    ) -> Bool {
        // Before the registration is visible: no resolve may meet a `.graph` service unprepared
        // (``add(_:usesDefaultLifetime:)`` noted it in the descendants before taking the lock).
        if registration.lifetime == .graph { snapshot.noteGraphRegistrations() }
        if state.openStagings > 0, let staging = Staging.innermost(for: self),
            staging.stage(entry() ?? Staging.Entry(registration: registration, instance: nil, context: context))
        {
            return false
        }
        // After the put, which reads the earlier registration's module (``State/replaced``).
        defer { if !state.provenance.isEmpty { state.provenance[registration.key] = nil } }
        return state.put(registration, context: context)
    }

    /// Puts `new` in place of `old`, if `old` is still this container's registration of its
    /// key (or is staged for it), forgetting what was cached for it.
    func replace(_ old: Registration, with new: Registration) {
        change(CollectionOfOne(old.key)) { state in
            if state.openStagings > 0, let staging = Staging.innermost(for: self), staging.replace(old, with: new) {
                return .none
            }
            return state.replace(old, with: new) ? .given : .none
        }
    }

    /// Applies staged registrations in one step, in the order they were made, as if made one
    /// by one with nothing in between: readers see all of them or none, and the last
    /// registration of a key wins. Values cached for replaced registrations are forgotten,
    /// here and in every scope below; an `instance:` registration that stays effective keeps
    /// its instance.
    ///
    /// An entry a module made records the module as its key's provenance; one made outside
    /// modules forgets the key's.
    func apply(_ entries: [Staging.Entry], modules: [InstalledModule]) {
        change { state in
            state.installedModules.formUnion(modules.map(\.name))
            state.modules.append(contentsOf: modules)
            var changed: [ServiceKey] = []
            for entry in entries {
                let key = entry.registration.key
                // The module after the put, which reads the earlier registration's (``State/replaced``).
                let isInForce = state.put(entry.registration, context: entry.context, module: entry.module?.module)
                if let module = entry.module {
                    state.provenance[key] = module
                } else if !state.provenance.isEmpty {
                    state.provenance[key] = nil
                }
                guard isInForce else { continue }
                state.keepValue(entry.instance, of: entry.registration, owned: entry.owned)
                changed.append(key)
            }
            return .many(changed, replacesValues: true)
        }
    }

    /// Records `child` as a container that may cache values of this one's registrations.
    private func adopt(_ child: Container) {
        state.withLock { $0.children.add(child) }
    }

    // MARK: - Resolving

    /// The service registered for `type` (and `name`), or `nil`.
    ///
    /// `nil` when nothing is registered is an answer, not an error: no suggestions are
    /// computed and nothing is reported. A registered service whose factory fails or closes a
    /// cycle is also `nil` here, but never silently: the error goes to
    /// ``Diagnostics/onResolutionError`` with its path. Use ``require(_:name:file:line:)`` to get
    /// it thrown. `file` and `line` (leave the defaults) say where a test records a live-only
    /// service resolved without an override.
    @inlinable
    public func resolve<T: Sendable>(
        _ type: T.Type, name: String? = nil, file: String = #fileID, line: UInt = #line
    ) -> T? {
        do {
            return try resolveSync(type, name: name, miss: .probe) as T
        } catch {
            _ = error.surfaced(file: file, line: line)
            return nil
        }
    }

    /// The service registered for `type` (and `name`), or an error saying why there is none:
    /// not registered (with the closest registrations), a cycle (with its path), a failing
    /// factory (with the path to it), an `async` factory reached synchronously, or a live-only
    /// service in a test context. `file` and `line` (leave the defaults) say where a test
    /// records the last.
    @inlinable
    public func require<T: Sendable>(
        _ type: T.Type, name: String? = nil, file: String = #fileID, line: UInt = #line
    ) throws(ResolutionError) -> T {
        do {
            return try resolveSync(type, name: name)
        } catch {
            throw error.surfaced(file: file, line: line)
        }
    }

    /// The service registered for `type` (and `name`), running `async` factories as needed.
    ///
    /// Cancelling the calling task while it waits for another task's creation of the value
    /// ends the wait with ``ResolutionError/cancelled(_:path:)``; the creation goes on. `file`
    /// and `line` work as ``require(_:name:file:line:)``'s.
    @inlinable
    public func resolveAsync<T: Sendable>(
        _ type: T.Type, name: String? = nil, file: String = #fileID, line: UInt = #line
    ) async throws(ResolutionError) -> T {
        do {
            return try await resolveValueAsync(ServiceKey(type, name: name))
        } catch {
            throw error.surfaced(file: file, line: line)
        }
    }

    /// Whether this container or an ancestor has a registration for `type` (and `name`).
    func isRegistered<T>(_ type: T.Type, name: String? = nil) -> Bool {
        registration(for: ServiceKey(type, name: name)) != nil
    }

    // MARK: - Introspection

    /// What is registered here and in ancestors (a child's registration hides its parent's),
    /// sorted by key.
    public var registrations: [RegistrationInfo] {
        var seen: Set<ServiceKey> = []
        var infos: [RegistrationInfo] = []
        var container: Container? = self
        while let current = container {
            let entries = current.state.withLock { state in
                state.registrations.values.map { registration in
                    (registration, state.cache.storedInstance(for: registration.key)?.value != nil)
                }
            }
            for (registration, isCached) in entries where seen.insert(registration.key).inserted {
                infos.append(
                    RegistrationInfo(
                        key: registration.key, lifetime: registration.lifetime, hasCachedInstance: isCached))
            }
            container = current.parent
        }
        return infos.sorted { $0.key.description < $1.key.description }
    }

    /// An ancestor's registration for `key` and the ancestor holding it, remembered after the
    /// first look.
    ///
    /// A remembered registration stays current: an ancestor that changes the key forgets it
    /// here afterwards (under this lock), and one is remembered only if, under this lock, it
    /// is still what the ancestors hold.
    func inheritedRegistration(for key: ServiceKey) -> (owner: Container, registration: Registration)? {
        let recording = recorder != nil
        let remembered = state.withLock { state -> InheritedRegistration? in
            guard let remembered = state.inherited[key] else { return nil }
            // Served under the lock: readers of the snapshot missed it.
            if !recording, remembered.registration.runsWithoutLock {
                state.cache.noteLockedTransientHit(state.registrations, state.inherited, to: snapshot)
            }
            return remembered
        }
        if let remembered { return (remembered.owner, remembered.registration) }
        guard let found = parent?.registration(for: key) else { return nil }
        state.withLock { state in
            // Only ancestors' locks are taken while this one is held.
            if state.registrations[key] == nil, parent?.registration(for: key)?.registration === found.registration {
                state.inherited[key] = InheritedRegistration(owner: found.owner, registration: found.registration)
            }
        }
        return found
    }

    /// The registration visible from this container and the container that holds it.
    func registration(for key: ServiceKey) -> (owner: Container, registration: Registration)? {
        var container: Container? = self
        while let current = container {
            if let registration = current.state.withLock({ $0.registrations[key] }) {
                return (current, registration)
            }
            container = current.parent
        }
        return nil
    }

    /// Every registration visible from here, children overriding parents.
    func visibleRegistrations() -> [ServiceKey: Registration] {
        var result: [ServiceKey: Registration] = [:]
        var container: Container? = self
        while let current = container {
            let own = current.state.withLock { $0.registrations }
            result.merge(own) { child, _ in child }
            container = current.parent
        }
        return result
    }
}

/// An ancestor's registration a container remembered, with the ancestor holding it.
struct InheritedRegistration {
    let owner: Container
    let registration: Registration
}

/// A registration as seen from outside: its key, lifetime and whether a value is cached.
public struct RegistrationInfo: Sendable, Hashable {
    /// The registered type and name.
    public let key: ServiceKey
    /// How long resolved values live.
    public let lifetime: Lifetime
    /// Whether the container currently holds a created value (singletons, scoped, live weak).
    public let hasCachedInstance: Bool
}
