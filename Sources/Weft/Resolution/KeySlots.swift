/// The key half of the published ``TransientTable``: a view over ``OpenAddressing``, its keys in
/// parallel arrays rather than one array of structs, so that probing reads plain integers and
/// a hit copies out only what the table keeps beside the key, at the slot this finds.
struct KeySlots: Sendable {
    /// Per slot: the key's type address (0 for an empty slot), and its name.
    private var types: [UInt]
    private var names: [String?]
    /// `UInt.bitWidth - log2(slot count)`: see ``OpenAddressing/home(of:shift:)``.
    private let shift: Int

    /// The number of slots, which the tables' arrays of values match.
    var count: Int { types.count }

    /// Slots for `keys` (all different), and the slot each was placed in, in order.
    static func placing(_ keys: [ServiceKey]) -> (KeySlots, placed: [Int]) {
        let bits = OpenAddressing.bits(holding: keys.count, minimumBits: 1)
        var slots = KeySlots(
            types: [UInt](repeating: 0, count: 1 << bits), names: [String?](repeating: nil, count: 1 << bits),
            shift: UInt.bitWidth - bits)
        var placed: [Int] = []
        placed.reserveCapacity(keys.count)
        for key in keys {
            let index = slots.probe(for: key).index
            slots.types[index] = key.typeAddress
            slots.names[index] = key.name
            placed.append(index)
        }
        slots.checkInvariants(holding: keys)
        return (slots, placed)
    }

    /// A power-of-two slot count, at most half full, and each of `keys` found by a probe from
    /// its home slot. Compiled in under `WEFT_INTERNAL_CHECKS` only.
    func checkInvariants(holding keys: [ServiceKey]) {
        #if WEFT_INTERNAL_CHECKS
            precondition(OpenAddressing.holds(keys.count, in: types.count), "not a power of two at most half full")
            precondition(1 << (UInt.bitWidth - shift) == types.count, "the shift does not match the slot count")
            for key in keys { precondition(slot(of: key) != nil, "\(key) is not found from its home slot") }
        #endif
    }

    private init(types: [UInt], names: [String?], shift: Int) {
        self.types = types
        self.names = names
        self.shift = shift
    }

    /// The slot holding `key`, or the empty slot it would go in.
    @inline(__always)
    private func probe(for key: ServiceKey) -> (index: Int, found: Bool) {
        let type = key.typeAddress
        return OpenAddressing.probe(
            from: OpenAddressing.home(of: OpenAddressing.word(of: key), shift: shift), mask: types.count - 1
        ) { index in
            let slot = types[index]
            if slot == 0 { return .empty }
            return slot == type && names[index] == key.name ? .found : .occupied
        }
    }

    /// The slot holding `key`, if any.
    @inline(__always)
    func slot(of key: ServiceKey) -> Int? {
        let (index, found) = probe(for: key)
        return found ? index : nil
    }
}
