/// The type a registration with arguments is keyed by: the service and its arguments' types,
/// `ArgumentsKey<DetailModel, Int>` or `ArgumentsKey<Route, (String, Int)>`.
///
/// Folding the arguments into the key's type keeps ``ServiceKey`` a type and a name: the
/// resolve paths of services without arguments never see them.
@usableFromInline
enum ArgumentsKey<Service, Arguments> {}

/// What ``ServiceKey`` reads back from an ``ArgumentsKey`` type, for descriptions and errors.
protocol ArgumentsKeyType {
    static var serviceType: Any.Type { get }
    static var argumentsType: Any.Type { get }
}

extension ArgumentsKey: ArgumentsKeyType {
    static var serviceType: Any.Type { Service.self }
    static var argumentsType: Any.Type { Arguments.self }
}

extension ServiceKey {
    /// The key of `type` registered with arguments of the types `arguments`, one value or a
    /// tuple. Registering and resolving both build it here, so they agree on the tuple type.
    @usableFromInline
    static func withArguments<T, each A>(_ type: T.Type, name: String?, _ arguments: repeat (each A).Type) -> ServiceKey
    {
        ServiceKey(ArgumentsKey<T, (repeat each A)>.self, name: name)
    }

    /// The service's own type: `DetailModel` for `DetailModel` with arguments `(Int)`.
    var serviceType: Any.Type { (type as? any ArgumentsKeyType.Type)?.serviceType ?? type }

    /// The types of the arguments the key was registered with, `nil` for none.
    var argumentsType: Any.Type? { (type as? any ArgumentsKeyType.Type)?.argumentsType }

    /// The key without its arguments: the same service and name.
    var withoutArguments: ServiceKey { ServiceKey(serviceType, name: name) }
}

/// Names arguments' types for messages: `(Int)`, `(String, Int)`, `()` for none.
func describeArguments(_ type: Any.Type?) -> String {
    guard let type else { return "()" }
    let name = String(describing: type)
    return name.hasPrefix("(") ? name : "(\(name))"
}
