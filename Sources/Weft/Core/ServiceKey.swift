import WeftPrimitives

/// Identifies a registration: a type plus an optional name.
///
/// Generic types are distinct keys: `Repository<User>` and `Repository<Product>` never collide.
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    /// The registered type.
    @usableFromInline let type: Any.Type
    /// The registration's name, or `nil` for the unnamed registration of the type.
    public let name: String?
    /// The name's `hashValue` (0 without a name), taken once: every table the key goes into
    /// (registrations, values, the published snapshots) and every resize of one
    /// reuses it instead of hashing the string again.
    @usableFromInline let nameHash: Int

    /// Creates the key of `type`, optionally named.
    @inlinable
    public init(_ type: Any.Type, name: String? = nil) {
        self.type = type
        self.name = name
        self.nameHash = name?.hashValue ?? 0
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

    @inlinable
    public static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.id == rhs.id && lhs.nameHash == rhs.nameHash && lhs.name == rhs.name
    }

    /// The type's identity: two keys of one type compare equal whatever `type` was cast from.
    @usableFromInline
    var id: ObjectIdentifier { ObjectIdentifier(type) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(nameHash)
    }

    /// What `Dictionary` and `Set` hash a key with, in place of a `Hasher` run over
    /// ``hash(into:)``: the type's address and the name's hash, mixed with the table's seed.
    ///
    /// The name's part was hashed by the standard library's seeded SipHash, so names cannot be
    /// chosen to collide; the type's part is an address. Mixing them costs a few
    /// multiplications where a `Hasher` costs a whole SipHash run.
    public func _rawHashValue(seed: Int) -> Int {
        // The finalizer of MurmurHash3 (fmix64): every input bit reaches every output bit.
        var bits = UInt64(UInt(bitPattern: Int(bitPattern: id)))
        bits ^= UInt64(UInt(bitPattern: nameHash)) &* OpenAddressing.golden64
        bits ^= UInt64(UInt(bitPattern: seed))
        bits ^= bits >> 33
        bits &*= 0xFF51_AFD7_ED55_8CCD
        bits ^= bits >> 33
        bits &*= 0xC4CE_B9FE_1A85_EC53
        bits ^= bits >> 33
        return Int(truncatingIfNeeded: bits)
    }
}
