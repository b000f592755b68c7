/// A registration just made, to add hooks and decorators to.
///
/// ```swift
/// container.register(Child.self, lifetime: .graph) { Child() }
///     .onCreated { resolver, child in child.parent = try resolver.resolve(Parent.self) }
/// container.register(API.self, lifetime: .singleton) { HTTPAPI() }
///     .decorated { api in LoggedAPI(api) }
/// ```
///
/// Decorators apply to each value the factory makes, in the order they were added; then the
/// `onCreated` hooks run on the decorated value, in the order they were added. Both run exactly
/// once per created value: a cached value read again runs neither. Registering the key again
/// drops them with the registration they belong to.
public struct Registered<Value: Sendable>: Sendable {
    @usableFromInline let container: Container
    @usableFromInline let registration: Registration

    /// Inlinable, so that a `register` whose result is discarded costs no retain of it.
    @inlinable
    init(_ container: Container, _ registration: Registration) {
        self.container = container
        self.registration = registration
    }

    /// Adds a hook that runs once on each created value, e.g. property injection (Swinject's
    /// `initCompleted`).
    ///
    /// A cached value (singleton, scoped, weak, graph) is cached before its hooks run, so a hook
    /// may resolve something that resolves the value back: that is how two services that hold
    /// each other close the loop. A hook that throws fails the resolve that created the value,
    /// with the error wrapped in ``ResolutionError/factoryFailed(_:path:underlying:)``; a cached
    /// value stays cached. Another thread may read a cached value while its hooks still run.
    @discardableResult
    public func onCreated(_ hook: @escaping @Sendable (Resolver, Value) throws -> Void) -> Registered<Value> {
        let typed: Registration.Hook = { resolver, value in try hook(resolver, try Self.cast(value)) }
        return rebuilt(made: registration.made, onCreated: registration.onCreated + [typed])
    }

    /// Adds a decorator that replaces each created value, e.g. with a wrapper (Factory's
    /// `decorator`). It runs before the value is cached and before any `onCreated` hook.
    @discardableResult
    public func decorated(_ decorate: @escaping @Sendable (Value) throws -> Value) -> Registered<Value> {
        let apply: @Sendable (any Sendable) throws -> any Sendable = { try decorate(try Self.cast($0)) }
        let made = registration.made.transformed(then: { _, value in try apply(value) })
        return rebuilt(made: made, onCreated: registration.onCreated)
    }

    func rebuilt(made: Registration.Factory, onCreated: [Registration.Hook]) -> Registered<Value> {
        let new = Registration(
            key: registration.key, lifetime: registration.lifetime, made: made, onCreated: onCreated,
            site: registration.site, keyTypeIsClass: registration.keyTypeIsClass)
        container.replace(registration, with: new)
        return Registered(container, new)
    }

    static func cast(_ value: any Sendable) throws -> Value {
        guard let typed = value as? Value else { throw TypeMismatch(expected: Value.self) }
        return typed
    }
}
