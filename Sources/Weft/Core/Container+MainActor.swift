/// Factories isolated to the main actor: a view model, a screen's state, anything `@MainActor`.
///
/// ```swift
/// container.register(ViewModel.self, lifetime: .singleton, isolation: MainActor.shared) { resolver in
///     ViewModel(api: try resolver.resolve(API.self))
/// }
/// let model = try container.require(ViewModel.self)          // on the main actor: made in place
/// let same = try await container.resolveAsync(ViewModel.self) // anywhere: hops to the main actor
/// ```
///
/// A synchronous resolve on the main actor runs the factory in place. `resolveAsync` from
/// anywhere hops to the main actor to create the value. A synchronous resolve anywhere else
/// throws ``ResolutionError/requiresIsolation(_:path:)`` unless a value is cached (singleton,
/// scoped, live weak), which any context gets. Values are only ever created on the main actor,
/// so no thread ever waits for a creation that needs the main actor: there is no launch
/// deadlock to fall into. See <doc:Isolation>.
extension Container {
    /// Registers a factory that runs on the main actor and needs nothing from the container.
    /// Pass `MainActor.shared` as `isolation`; the other parameters are those of
    /// the non-isolated `register(_:name:lifetime:also:when:file:line:factory:)`.
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        also: Any.Type...,
        when context: Context? = nil,
        isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable () throws -> T
    ) -> Registered<T> {
        let key = ServiceKey(type, name: name)
        let made = Registration.Factory(
            .sync { _, _ in try MainActorIsolation.run({ try factory() }, key: key) }, .mainActor)
        return Registered(
            self,
            add(
                key, lifetime, made, also: also, context: context, site: RegistrationSite(fileID: file, line: Int(line))
            ))
    }

    /// Registers a factory that runs on the main actor and resolves its dependencies through
    /// `resolver` (synchronously, on the main actor).
    /// Pass `MainActor.shared` as `isolation`; the other parameters are those of
    /// the non-isolated `register(_:name:lifetime:also:when:file:line:factory:)`.
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        also: Any.Type...,
        when context: Context? = nil,
        isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver) throws -> T
    ) -> Registered<T> {
        let key = ServiceKey(type, name: name)
        let made = Registration.Factory(
            .sync { resolver, _ in try MainActorIsolation.run({ try factory(resolver) }, key: key) }, .mainActor)
        return Registered(
            self,
            add(
                key, lifetime, made, also: also, context: context, site: RegistrationSite(fileID: file, line: Int(line))
            ))
    }

    /// Registers an `async` factory that runs on the main actor; resolve it with `await`.
    /// Pass `MainActor.shared` as `isolation`; the other parameters are those of
    /// the non-isolated `register(_:name:lifetime:also:when:file:line:factory:)`.
    @discardableResult
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        also: Any.Type...,
        when context: Context? = nil,
        isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver) async throws -> T
    ) -> Registered<T> {
        // Calling a main-actor function from a non-isolated one hops there.
        let made = Registration.Factory(.async { resolver, _ in try await factory(resolver) }, .mainActor)
        return Registered(
            self,
            add(
                ServiceKey(type, name: name), lifetime, made, also: also, context: context,
                site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// Registers a factory that runs on the main actor and takes one argument at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil, isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver, A) throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self)
        return registerOnMainActor(key, lifetime, site: RegistrationSite(fileID: file, line: Int(line))) {
            (resolver, arguments) throws in
            try factory(resolver, try Self.unpack(arguments, for: key))
        }
    }

    /// Registers a factory that runs on the main actor and takes two arguments at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil, isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver, A, B) throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self)
        return registerOnMainActor(key, lifetime, site: RegistrationSite(fileID: file, line: Int(line))) {
            (resolver, arguments) throws in
            let (a, b): (A, B) = try Self.unpack(arguments, for: key)
            return try factory(resolver, a, b)
        }
    }

    /// Registers a factory that runs on the main actor and takes three arguments at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable, C: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil, isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver, A, B, C) throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self, C.self)
        return registerOnMainActor(key, lifetime, site: RegistrationSite(fileID: file, line: Int(line))) {
            (resolver, arguments) throws in
            let (a, b, c): (A, B, C) = try Self.unpack(arguments, for: key)
            return try factory(resolver, a, b, c)
        }
    }

    /// Registers an `async` factory that runs on the main actor and takes one argument.
    @discardableResult
    public func register<T: Sendable, A: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil, isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver, A) async throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self)
        return registerOnMainActor(key, lifetime, site: RegistrationSite(fileID: file, line: Int(line))) {
            (resolver, arguments) async throws in
            try await factory(resolver, try Self.unpack(arguments, for: key))
        }
    }

    /// Registers an `async` factory that runs on the main actor and takes two arguments.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil, isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver, A, B) async throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self)
        return registerOnMainActor(key, lifetime, site: RegistrationSite(fileID: file, line: Int(line))) {
            (resolver, arguments) async throws in
            let (a, b): (A, B) = try Self.unpack(arguments, for: key)
            return try await factory(resolver, a, b)
        }
    }

    /// Registers an `async` factory that runs on the main actor and takes three arguments.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable, C: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil, isolation: MainActor,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolver, A, B, C) async throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self, C.self)
        return registerOnMainActor(key, lifetime, site: RegistrationSite(fileID: file, line: Int(line))) {
            (resolver, arguments) async throws in
            let (a, b, c): (A, B, C) = try Self.unpack(arguments, for: key)
            return try await factory(resolver, a, b, c)
        }
    }

    /// Adds an `async` main-actor factory taking its arguments as one value.
    private func registerOnMainActor<T: Sendable>(
        _ key: ServiceKey, _ lifetime: Lifetime?, site: RegistrationSite,
        _ make: @escaping @MainActor @Sendable (Resolver, (any Sendable)?) async throws -> T
    ) -> Registered<T> {
        let made = Registration.Factory(
            .async { resolver, arguments in try await make(resolver, arguments) }, [.mainActor, .takesArguments])
        return Registered(self, add(key, lifetime, made, site: site))
    }

    /// Adds a main-actor factory taking its arguments as one value (see ``ArgumentsKey``).
    private func registerOnMainActor<T: Sendable>(
        _ key: ServiceKey, _ lifetime: Lifetime?, site: RegistrationSite,
        _ make: @escaping @MainActor @Sendable (Resolver, (any Sendable)?) throws -> T
    ) -> Registered<T> {
        let made = Registration.Factory(
            .sync { resolver, arguments in try MainActorIsolation.run({ try make(resolver, arguments) }, key: key) },
            [.mainActor, .takesArguments])
        return Registered(self, add(key, lifetime, made, site: site))
    }
}
