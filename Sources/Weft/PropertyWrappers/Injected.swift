import WeftPrimitives

/// A dependency resolved lazily, on first access, and then kept.
///
/// ```swift
/// final class CheckoutModel {
///     @Injected var logger: Logger?
///     @Injected("basic") var orders: OrderService?
///     @Injected(container: testContainer) var clock: Clock?
/// }
/// ```
///
/// Resolves from ``Container/shared`` at first access unless given a container. A missing
/// registration reads as `nil` and is tried again on the next access; `$logger.resolve()`
/// says why it is missing. A test may set the property (`model.logger = FakeLogger()`);
/// setting `nil` makes the next access resolve again.
///
/// ## A checked `Sendable` class
///
/// A property wrapper's storage is always a `var`, and a class with a `var` stored property
/// cannot be checked `Sendable`: no wrapper can avoid that. `Injected` itself is `Sendable`
/// (its value sits behind a lock), so such a class holds it as a `let` instead:
///
/// ```swift
/// final class CheckoutModel: Sendable {
///     let logger = Injected<any Logger>()
///     func pay() { logger.wrappedValue?.log("paid") }
/// }
/// ```
@propertyWrapper
public struct Injected<Value: Sendable>: Sendable {
    private let name: String?
    private let container: Container?
    private let cache = Locked<Value?>(nil)

    /// - Parameters:
    ///   - name: The registration's name, if it is named.
    ///   - container: Where to resolve from; ``Container/shared`` when `nil`.
    public init(_ name: String? = nil, container: Container? = nil) {
        self.name = name
        self.container = container
    }

    /// The resolved value, or `nil` while it cannot be resolved. Setting it replaces the
    /// value for this property only; setting `nil` resolves again on the next access.
    public var wrappedValue: Value? {
        get {
            if let cached = cache.withLock({ $0 }) { return cached }
            guard let value = try? resolve() else { return nil }
            return cache.withLock { cached in
                if cached == nil { cached = value }
                return cached
            }
        }
        nonmutating set {
            cache.withLock { $0 = newValue }
        }
    }

    /// The wrapper itself, for ``resolve()``.
    public var projectedValue: Injected<Value> { self }

    /// Resolves the dependency now, throwing the reason when it cannot.
    public func resolve() throws(ResolutionError) -> Value {
        try (container ?? .shared).resolveSync(Value.self, name: name)
    }
}
