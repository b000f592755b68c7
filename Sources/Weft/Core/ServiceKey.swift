/// Identifies a registration: a type plus an optional name.
///
/// Generic types are distinct keys: `Repository<User>` and `Repository<Product>` never collide.
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    /// The registered type.
    let type: Any.Type
    /// The registration's name, or `nil` for the unnamed registration of ``type``.
    public let name: String?

    /// Creates the key of `type`, optionally named.
    public init(_ type: Any.Type, name: String? = nil) {
        self.type = type
        self.name = name
    }

    /// The type's name as written in code, e.g. `Repository<User>`; the service's for a key
    /// with arguments.
    var typeName: String { String(describing: serviceType) }

    /// `Logger`, `"basic" OrderService` for a named registration, `DetailModel(Int)` for one
    /// with arguments.
    public var description: String {
        let arguments = argumentsType.map(describeArguments) ?? ""
        if let name { return "\"\(name)\" \(typeName)\(arguments)" }
        return typeName + arguments
    }

    public static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name
    }

    /// The type's identity: two keys of one type compare equal whatever `type` was cast from.
    var id: ObjectIdentifier { ObjectIdentifier(type) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        if let name { hasher.combine(name) }
    }
}
