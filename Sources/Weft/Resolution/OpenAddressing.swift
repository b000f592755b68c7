/// The one hashing scheme of the engine's tables: the published ``CacheTable``, the keys of the
/// published ``TransientTable`` (``KeySlots``) and the creations in flight
/// (``CreationsInFlight``). Each is a thin typed view over what is here: a power-of-two slot count
/// kept at most half full (the one growth rule), a word's home slot by Fibonacci hashing (the
/// one hash), and linear probing from it (the one probe loop, which ``CacheTable`` writes out
/// itself: see its `emptySlot`).
///
/// A word is what names an entry: a key's type address mixed with its name's hash, or a
/// registration's address. Fibonacci hashing spreads addresses that differ only in their
/// middle bits, as type metadata and objects do, at the price of one multiplication, where
/// `Hasher` runs SipHash.
enum OpenAddressing {
    /// What a probe learns from one slot.
    enum Probe {
        /// The slot holds the entry looked for.
        case found
        /// The slot is empty: the entry is not in the table, and would go here.
        case empty
        /// Another entry: the probe goes on to the next slot.
        case occupied
    }

    /// The home slot of `word` in a table of 2^(w − `shift`) slots: the top bits of its product
    /// with ⌊2^w/φ⌋, w the platform's word width (64-bit platforms and 32-bit ones, watchOS's
    /// arm64_32 and WASI's wasm32, each get the golden ratio's bits). `shift` is in `0..<w` (a
    /// table of at least two slots).
    @inline(__always)
    static func home(of word: UInt, shift: Int) -> Int {
        // The literal of ``golden64``, so that a debug build's cached read calls nothing here.
        let multiplier: UInt =
            UInt.bitWidth == 64 ? UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64) : 0x9E37_79B9
        return Int(truncatingIfNeeded: (word &* multiplier) &>> shift)
    }

    /// ⌊2^64/φ⌋, odd: the 64-bit multiplier, also a mixing constant on its own (``ServiceKey``'s
    /// hash). A literal, not a `static let`, whose lazy initializer would be checked per hash.
    @inline(__always)
    static var golden64: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// The word naming `key`: its type's address, mixed with its name's hash (0 for no name).
    @inline(__always)
    static func word(of key: ServiceKey) -> UInt {
        key.typeAddress ^ UInt(bitPattern: key.nameHash)
    }

    /// The one probe loop: from `home`, the first slot `examine` finds the entry in, or the
    /// first empty one, in a table of `mask + 1` slots (a power of two, never full).
    @inline(__always)
    static func probe(from home: Int, mask: Int, _ examine: (Int) -> Probe) -> (index: Int, found: Bool) {
        var index = home
        while true {
            switch examine(index) {
            case .found: return (index, true)
            case .empty: return (index, false)
            case .occupied: index = (index &+ 1) & mask
            }
        }
    }

    /// The one growth rule: log2 of the fewest slots (at least 2^`minimumBits`) that hold
    /// `entries` at most half full.
    static func bits(holding entries: Int, minimumBits: Int) -> Int {
        var bits = minimumBits
        while 1 << bits < entries * 2 { bits += 1 }
        return bits
    }

    /// Whether `count` entries in `capacity` slots keep the table's shape: a power of two, at
    /// most half full. The precondition every insertion checks under `WEFT_INTERNAL_CHECKS`.
    static func holds(_ count: Int, in capacity: Int) -> Bool {
        capacity > 0 && capacity & (capacity - 1) == 0 && count * 2 <= capacity
    }
}

extension ServiceKey {
    /// The address of the key's type metadata: never 0.
    var typeAddress: UInt { UInt(bitPattern: Int(bitPattern: id)) }
}
