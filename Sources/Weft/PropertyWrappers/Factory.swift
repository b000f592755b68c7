/// A dependency made anew on every access.
///
/// ```swift
/// final class Gallery {
///     @Factory var processor: ImageProcessor = BasicImageProcessor()
/// }
/// ```
///
/// Each read resolves the registration again (register it `.transient` for a new value each
/// time). When resolving fails — nothing is registered, or its factory threw — the default
/// expression is evaluated instead, on every access too, so reading the property never
/// fails; `try $processor.make()` throws the reason instead of falling back.
@propertyWrapper
public struct Factory<Value: Sendable>: Sendable {
    private let name: String?
    private let container: Container?
    private let fallback: @Sendable () -> Value

    /// - Parameters:
    ///   - wrappedValue: Made when the container has no registration for `Value`.
    ///   - name: The registration's name, if it is named.
    ///   - container: Where to resolve from; ``Container/shared`` when `nil`.
    public init(
        wrappedValue: @autoclosure @escaping @Sendable () -> Value,
        _ name: String? = nil,
        container: Container? = nil
    ) {
        self.fallback = wrappedValue
        self.name = name
        self.container = container
    }

    /// A new value from the container, or from the default expression.
    public var wrappedValue: Value {
        (try? make()) ?? fallback()
    }

    /// The wrapper itself, for ``make()``.
    public var projectedValue: Factory<Value> { self }

    /// A new value from the container, or the reason there is none.
    public func make() throws(ResolutionError) -> Value {
        try (container ?? .shared).resolveSync(Value.self, name: name)
    }
}
