import WeftPrimitives

/// A dependency held weakly: a back-reference to a parent or delegate that must not be kept
/// alive by the object that refers to it.
///
/// ```swift
/// final class ChildModel {
///     @WeakInjected var coordinator: (any Coordinator)?
/// }
/// ```
///
/// Resolves from ``Container/shared`` (or the given container) on access while it holds
/// nothing, and keeps the value weakly: once every strong holder released it, reads resolve
/// again, which for a singleton or `.weak` registration gives the live value, if any. Setting
/// the property replaces the held value, e.g. in a test. `Value` is a class or a class-bound
/// protocol (a value type cannot be held weakly: it is resolved on every read). Like
/// ``Injected``, a checked `Sendable` class holds it as a `let` and reads `wrappedValue`.
@propertyWrapper
public struct WeakInjected<Value: Sendable>: Sendable {
    private let name: String?
    private let container: Container?
    private let reference = Locked(WeakBox())

    /// - Parameters:
    ///   - name: The registration's name, if it is named.
    ///   - container: Where to resolve from; ``Container/shared`` when `nil`.
    public init(_ name: String? = nil, container: Container? = nil) {
        self.name = name
        self.container = container
    }

    /// The held value, resolved while none is held; `nil` while it cannot be resolved.
    public var wrappedValue: Value? {
        get {
            if let held = reference.withLock({ $0.object }) as? Value { return held }
            guard let value = try? (container ?? .shared).resolveSync(Value.self, name: name) as Value
            else {
                return nil
            }
            hold(value)
            return value
        }
        nonmutating set {
            hold(newValue)
        }
    }

    private func hold(_ value: Value?) {
        reference.withLock { $0.object = value.flatMap(TrustedCasts.classInstance) }
    }
}

/// A weak reference, only touched under its wrapper's lock.
private struct WeakBox {
    weak var object: AnyObject?
}
