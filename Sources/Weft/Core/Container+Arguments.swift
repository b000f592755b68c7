/// Factories that take arguments at resolve time (Swinject's `resolve(_:argument:)`, Factory's
/// `ParameterFactory`): a detail model built for one item id.
///
/// ```swift
/// container.register(DetailModel.self) { (resolver: Resolver, id: Item.ID) in
///     DetailModel(id: id, api: try resolver.resolve(API.self))
/// }
/// let model = try container.require(DetailModel.self, argument: item.id)
/// ```
///
/// The arguments' types are part of the key: a factory of `(Int)` and one of `(String)` are
/// two registrations, and neither is the registration without arguments. Resolving with
/// arguments nothing takes is ``ResolutionError/argumentMismatch(_:registered:given:path:)``,
/// naming both. A cached lifetime caches the first value made, whatever later arguments are.
extension Container {
    /// Registers a factory that takes one argument at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver, A) throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self)
        return Registered(
            self,
            add(
                key, lifetime,
                Registration.Factory(
                    .sync { resolver, arguments in
                        try factory(resolver, try Self.unpack(arguments, for: key))
                    }, .takesArguments), site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// Registers a factory that takes two arguments at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver, A, B) throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self)
        return Registered(
            self,
            add(
                key, lifetime,
                Registration.Factory(
                    .sync { resolver, arguments in
                        let (a, b): (A, B) = try Self.unpack(arguments, for: key)
                        return try factory(resolver, a, b)
                    }, .takesArguments), site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// Registers a factory that takes three arguments at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable, C: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver, A, B, C) throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self, C.self)
        return Registered(
            self,
            add(
                key, lifetime,
                Registration.Factory(
                    .sync { resolver, arguments in
                        let (a, b, c): (A, B, C) = try Self.unpack(arguments, for: key)
                        return try factory(resolver, a, b, c)
                    }, .takesArguments), site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// Registers an `async` factory that takes one argument at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver, A) async throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self)
        return Registered(
            self,
            add(
                key, lifetime,
                Registration.Factory(
                    .async { resolver, arguments in
                        try await factory(resolver, try Self.unpack(arguments, for: key))
                    }, .takesArguments), site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// Registers an `async` factory that takes two arguments at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver, A, B) async throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self)
        return Registered(
            self,
            add(
                key, lifetime,
                Registration.Factory(
                    .async { resolver, arguments in
                        let (a, b): (A, B) = try Self.unpack(arguments, for: key)
                        return try await factory(resolver, a, b)
                    }, .takesArguments), site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// Registers an `async` factory that takes three arguments at resolve time.
    @discardableResult
    public func register<T: Sendable, A: Sendable, B: Sendable, C: Sendable>(
        _ type: T.Type = T.self, name: String? = nil, lifetime: Lifetime? = nil,
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable (Resolver, A, B, C) async throws -> T
    ) -> Registered<T> {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self, C.self)
        return Registered(
            self,
            add(
                key, lifetime,
                Registration.Factory(
                    .async { resolver, arguments in
                        let (a, b, c): (A, B, C) = try Self.unpack(arguments, for: key)
                        return try await factory(resolver, a, b, c)
                    }, .takesArguments), site: RegistrationSite(fileID: file, line: Int(line))))
    }

    /// The service registered for `type` (and `name`) with a factory taking `argument`, or
    /// `nil`; an error goes to ``Diagnostics/onResolutionError`` as for
    /// ``resolve(_:name:file:line:)``, whose `file` and `line` these are too.
    public func resolve<T: Sendable, A: Sendable>(
        _ type: T.Type, name: String? = nil, argument: A, file: String = #fileID, line: UInt = #line
    ) -> T? {
        let key = ServiceKey.withArguments(type, name: name, A.self)
        do {
            return try Self.cast(resolveWithArguments(key, arguments: argument, miss: .probe), key)
        } catch {
            _ = error.surfaced(file: file, line: line)
            return nil
        }
    }

    /// The service registered for `type` (and `name`) with a factory taking these two or
    /// three arguments, or `nil`.
    public func resolve<T: Sendable, A: Sendable, B: Sendable, each C: Sendable>(
        _ type: T.Type, name: String? = nil, arguments a: A, _ b: B, _ c: repeat each C,
        file: String = #fileID, line: UInt = #line
    ) -> T? {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self, repeat (each C).self)
        do {
            return try Self.cast(resolveWithArguments(key, arguments: (a, b, repeat each c), miss: .probe), key)
        } catch {
            _ = error.surfaced(file: file, line: line)
            return nil
        }
    }

    /// The service registered for `type` (and `name`) with a factory taking `argument`, or the
    /// reason there is none, e.g. ``ResolutionError/argumentMismatch(_:registered:given:path:)``.
    public func require<T: Sendable, A: Sendable>(
        _ type: T.Type, name: String? = nil, argument: A, file: String = #fileID, line: UInt = #line
    ) throws(ResolutionError) -> T {
        do {
            return try resolveWith(type, name: name, argument: argument)
        } catch {
            throw error.surfaced(file: file, line: line)
        }
    }

    /// The service registered for `type` (and `name`) with a factory taking these two or
    /// three arguments, or the reason there is none.
    public func require<T: Sendable, A: Sendable, B: Sendable, each C: Sendable>(
        _ type: T.Type, name: String? = nil, arguments a: A, _ b: B, _ c: repeat each C,
        file: String = #fileID, line: UInt = #line
    ) throws(ResolutionError) -> T {
        do {
            return try resolveWith(type, name: name, arguments: a, b, repeat each c)
        } catch {
            throw error.surfaced(file: file, line: line)
        }
    }

    /// The service registered for `type` (and `name`) with a factory taking `argument`,
    /// running `async` factories as needed.
    public func resolveAsync<T: Sendable, A: Sendable>(
        _ type: T.Type, name: String? = nil, argument: A, file: String = #fileID, line: UInt = #line
    ) async throws(ResolutionError) -> T {
        do {
            return try await resolveAsyncWith(type, name: name, argument: argument)
        } catch {
            throw error.surfaced(file: file, line: line)
        }
    }

    /// The service registered for `type` (and `name`) with a factory taking these two or
    /// three arguments, running `async` factories as needed.
    public func resolveAsync<T: Sendable, A: Sendable, B: Sendable, each C: Sendable>(
        _ type: T.Type, name: String? = nil, arguments a: A, _ b: B, _ c: repeat each C,
        file: String = #fileID, line: UInt = #line
    ) async throws(ResolutionError) -> T {
        do {
            return try await resolveAsyncWith(type, name: name, arguments: a, b, repeat each c)
        } catch {
            throw error.surfaced(file: file, line: line)
        }
    }

    /// The value of `type` (and `name`) made with `argument`: what `require` and a resolver's
    /// `resolve` with one argument share (a resolver's error is its factory's, reported by the
    /// outermost resolve).
    func resolveWith<T: Sendable, A: Sendable>(_ type: T.Type, name: String?, argument: A)
        throws(ResolutionError) -> T
    {
        let key = ServiceKey.withArguments(type, name: name, A.self)
        return try Self.cast(resolveWithArguments(key, arguments: argument, miss: .fail), key)
    }

    /// ``resolveWith(_:name:argument:)`` with two or three arguments.
    func resolveWith<T: Sendable, A: Sendable, B: Sendable, each C: Sendable>(
        _ type: T.Type, name: String?, arguments a: A, _ b: B, _ c: repeat each C
    ) throws(ResolutionError) -> T {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self, repeat (each C).self)
        return try Self.cast(resolveWithArguments(key, arguments: (a, b, repeat each c), miss: .fail), key)
    }

    /// The `async` counterpart of ``resolveWith(_:name:argument:)``.
    func resolveAsyncWith<T: Sendable, A: Sendable>(_ type: T.Type, name: String?, argument: A)
        async throws(ResolutionError) -> T
    {
        let key = ServiceKey.withArguments(type, name: name, A.self)
        return try Self.cast(await resolveWithArgumentsAsync(key, arguments: argument), key)
    }

    /// The `async` counterpart of ``resolveWith(_:name:arguments:_:_:)``.
    func resolveAsyncWith<T: Sendable, A: Sendable, B: Sendable, each C: Sendable>(
        _ type: T.Type, name: String?, arguments a: A, _ b: B, _ c: repeat each C
    ) async throws(ResolutionError) -> T {
        let key = ServiceKey.withArguments(type, name: name, A.self, B.self, repeat (each C).self)
        return try Self.cast(await resolveWithArgumentsAsync(key, arguments: (a, b, repeat each c)), key)
    }

    /// `arguments` as the types `key`'s factory takes. The key names those types, so this
    /// fails only for a key built by hand.
    static func unpack<A>(_ arguments: (any Sendable)?, for key: ServiceKey) throws(ResolutionError) -> A {
        guard let arguments else { throw .argumentMismatch(key.withoutArguments, registered: A.self, given: Void.self) }
        guard let typed = arguments as? A else {
            throw .argumentMismatch(key.withoutArguments, registered: A.self, given: type(of: arguments))
        }
        return typed
    }
}

extension Resolver {
    /// The service registered for `type` (and `name`) with a factory taking `argument`.
    public func resolve<T: Sendable, A: Sendable>(_ type: T.Type, name: String? = nil, argument: A)
        throws(ResolutionError) -> T
    {
        try container.resolveWith(type, name: name, argument: argument)
    }

    /// The service registered for `type` (and `name`) with a factory taking these two or
    /// three arguments.
    public func resolve<T: Sendable, A: Sendable, B: Sendable, each C: Sendable>(
        _ type: T.Type, name: String? = nil, arguments a: A, _ b: B, _ c: repeat each C
    ) throws(ResolutionError) -> T {
        try container.resolveWith(type, name: name, arguments: a, b, repeat each c)
    }

    /// The service registered for `type` (and `name`) with a factory taking `argument`,
    /// running `async` factories as needed.
    public func resolve<T: Sendable, A: Sendable>(_ type: T.Type, name: String? = nil, argument: A)
        async throws(ResolutionError) -> T
    {
        try await container.resolveAsyncWith(type, name: name, argument: argument)
    }

    /// The service registered for `type` (and `name`) with a factory taking these two or
    /// three arguments, running `async` factories as needed.
    public func resolve<T: Sendable, A: Sendable, B: Sendable, each C: Sendable>(
        _ type: T.Type, name: String? = nil, arguments a: A, _ b: B, _ c: repeat each C
    ) async throws(ResolutionError) -> T {
        try await container.resolveAsyncWith(type, name: name, arguments: a, b, repeat each c)
    }
}
