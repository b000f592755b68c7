import WeftPrimitives

/// The key half of the published ``TransientTable``: open addressing
/// with linear probing, at most half full, a power-of-two slot count. Parallel arrays rather
/// than one array of structs: probing reads plain integers, and a hit copies out only what the
/// table keeps beside the key, at the slot this finds.
struct KeySlots: Sendable {
    /// Per slot: the key's type address (0 for an empty slot), and its name.
    private let types: [UInt]
    private let names: [String?]
    /// `UInt.bitWidth - log2(slot count)`: a key's scrambled hash, shifted right by this,
    /// is its home slot.
    private let shift: Int

    /// The number of slots, which the tables' arrays of values match.
    var count: Int { types.count }

    /// Slots for `keys` (all different), and the slot each was placed in, in order.
    static func placing(_ keys: [ServiceKey]) -> (KeySlots, placed: [Int]) {
        var bits = 1
        while 1 << bits < keys.count * 2 { bits += 1 }
        let shift = UInt.bitWidth - bits
        var types = [UInt](repeating: 0, count: 1 << bits)
        var names = [String?](repeating: nil, count: 1 << bits)
        var placed: [Int] = []
        placed.reserveCapacity(keys.count)
        for key in keys {
            var index = home(of: key, shift: shift)
            while types[index] != 0 { index = (index + 1) & (types.count - 1) }
            types[index] = key.typeAddress
            names[index] = key.name
            placed.append(index)
        }
        let slots = KeySlots(types: types, names: names, shift: shift)
        slots.checkInvariants(holding: keys)
        return (slots, placed)
    }

    /// A power-of-two slot count, at most half full, and each of `keys` found by a probe from
    /// its home slot. Compiled in under `WEFT_INTERNAL_CHECKS` only.
    func checkInvariants(holding keys: [ServiceKey]) {
        #if WEFT_INTERNAL_CHECKS
            precondition(types.count & (types.count - 1) == 0, "the slot count is not a power of two")
            precondition(1 << (UInt.bitWidth - shift) == types.count, "the shift does not match the slot count")
            precondition(keys.count * 2 <= types.count, "more than half full")
            for key in keys { precondition(slot(of: key) != nil, "\(key) is not found from its home slot") }
        #endif
    }

    private init(types: [UInt], names: [String?], shift: Int) {
        self.types = types
        self.names = names
        self.shift = shift
    }

    /// The slot holding `key`, if any.
    @inline(__always)
    func slot(of key: ServiceKey) -> Int? {
        let type = key.typeAddress
        let mask = types.count - 1
        var index = Self.home(of: key, shift: shift)
        while true {
            let slot = types[index]
            if slot == 0 { return nil }
            if slot == type && names[index] == key.name { return index }
            index = (index + 1) & mask
        }
    }

    /// Fibonacci hashing of the type's address (and the name's hash, for a named key): far
    /// cheaper than `Hasher`, and type metadata addresses differ in their middle bits.
    @inline(__always)
    static func home(of key: ServiceKey, shift: Int) -> Int {
        home(ofUnnamed: key.typeAddress ^ UInt(bitPattern: key.nameHash), shift: shift)
    }

    /// ``home(of:shift:)`` of the unnamed key of the type at `type` (its name's hash is 0).
    @inline(__always)
    static func home(ofUnnamed type: UInt, shift: Int) -> Int {
        FibonacciHashing.slot(of: type, shift: shift)
    }
}

extension ServiceKey {
    /// The address of the key's type metadata: never 0.
    var typeAddress: UInt { UInt(bitPattern: Int(bitPattern: id)) }
}

/// The synchronous transient registrations a container resolves, readable without its lock:
/// its own, and the ancestors' its scopes resolved before, each with the ancestor holding it.
///
/// Published apart from the ``CacheTable``: values are cached all the time, registrations
/// rarely change, so republishing the values never copies the registrations. Immutable once
/// built, kept alive like the snapshot (see ``SnapshotSlot``).
final class TransientTable: Sendable {
    private let keys: KeySlots
    private let registrations: [Registration?]
    /// The ancestor holding the registration, or `nil` for the container's own.
    private let owners: [Container?]

    init(_ entries: [(registration: Registration, owner: Container?)]) {
        let (keys, placed) = KeySlots.placing(entries.map(\.registration.key))
        var registrations = [Registration?](repeating: nil, count: keys.count)
        var owners = [Container?](repeating: nil, count: keys.count)
        for ((registration, owner), index) in zip(entries, placed) {
            registrations[index] = registration
            owners[index] = owner
        }
        self.keys = keys
        self.registrations = registrations
        self.owners = owners
    }

    /// The transient registration of `key` and the ancestor holding it (`nil`: the container's).
    @inline(__always)
    func registration(for key: ServiceKey) -> (registration: Registration, owner: Container?)? {
        guard let slot = keys.slot(of: key), let registration = registrations[slot] else { return nil }
        return (registration, owners[slot])
    }

    func contains(_ key: ServiceKey) -> Bool { keys.slot(of: key) != nil }
}
