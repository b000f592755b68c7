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

    /// The type's name as written in code, e.g. `Repository<User>`.
    var typeName: String { String(describing: type) }

    /// `Logger`, or `"basic" OrderService` for a named registration.
    public var description: String {
        if let name { return "\"\(name)\" \(typeName)" }
        return typeName
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
