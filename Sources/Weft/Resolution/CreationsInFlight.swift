import WeftPrimitives

/// The container's own synchronous singletons being made on the cold path right now: for each,
/// the address of its registration and the step its creator runs in (``Creator``).
///
/// A view over ``OpenAddressing`` with plain words for keys: where the
/// container's dictionary of creations in flight hashes and compares a key and counts
/// references to the creator's frame, starting and ending a creation here costs a
/// multiplication and a compare or two. A registration belongs to one container, and lives at
/// least as long as a creation of it runs (its creator holds it), so its address names the
/// creation. Every method is called with the container's lock held.
struct OwnCreations {
    private struct Entry {
        /// The registration's address; 0 for an empty slot.
        var registration: UInt
        var creator: Creator?
    }

    private var slots: [Entry] = []
    /// How many creations are in flight.
    private(set) var count = 0

    /// The slot `registration` would be found from.
    @inline(__always)
    private func home(of registration: UInt) -> Int {
        OpenAddressing.home(of: registration, shift: UInt.bitWidth - slots.count.trailingZeroBitCount)
    }

    /// The slot holding `registration`, or the empty slot it would go in (the table has slots).
    @inline(__always)
    private func probe(for registration: UInt) -> (index: Int, found: Bool) {
        OpenAddressing.probe(from: home(of: registration), mask: slots.count &- 1) { index in
            let found = slots[index].registration
            return found == registration ? .found : found == 0 ? .empty : .occupied
        }
    }

    /// The slot holding `registration`, if it is in flight.
    @inline(__always)
    private func slot(of registration: UInt) -> Int? {
        guard count > 0 else { return nil }
        let (index, found) = probe(for: registration)
        return found ? index : nil
    }

    /// The step of the creation of `registration` in flight, if any.
    func creator(of registration: Registration) -> Creator? {
        slot(of: Self.address(of: registration)).flatMap { slots[$0].creator }
    }

    /// Starts the creation of `registration` in the step at `creator`, unless one is in
    /// flight: whether it did.
    @inline(__always)
    mutating func start(_ registration: Registration, in creator: Creator) -> Bool {
        let address = Self.address(of: registration)
        if slot(of: address) != nil { return false }
        if !OpenAddressing.holds(count &+ 1, in: slots.count) { grow() }
        slots[probe(for: address).index] = Entry(registration: address, creator: creator)
        count &+= 1
        #if WEFT_INTERNAL_CHECKS
            checkInvariants()
        #endif
        return true
    }

    /// Ends the creation of `registration` in the step at `creator`: whether it was in flight.
    @inline(__always)
    @discardableResult
    mutating func end(_ registration: Registration, in creator: Creator) -> Bool {
        guard var index = slot(of: Self.address(of: registration)), slots[index].creator == creator else {
            return false
        }
        // Backward-shift deletion: later entries of the run move up, so no probe stops early.
        let mask = slots.count &- 1
        var next = (index &+ 1) & mask
        while slots[next].registration != 0 {
            let home = home(of: slots[next].registration)
            // Moves up unless its home lies cyclically in (index, next].
            let stays = index <= next ? (index < home && home <= next) : (index < home || home <= next)
            if !stays {
                slots[index] = slots[next]
                index = next
            }
            next = (next &+ 1) & mask
        }
        slots[index] = Entry(registration: 0, creator: nil)
        count &-= 1
        #if WEFT_INTERNAL_CHECKS
            checkInvariants()
        #endif
        return true
    }

    /// The slots the one growth rule gives for one more entry (16 at least), the entries
    /// placed again.
    private mutating func grow() {
        let old = slots
        slots = Array(
            repeating: Entry(registration: 0, creator: nil),
            count: 1 << OpenAddressing.bits(holding: count &+ 1, minimumBits: 4))
        for entry in old where entry.registration != 0 { slots[probe(for: entry.registration).index] = entry }
    }

    /// The registration's address, never 0: what names its creation.
    @inline(__always)
    private static func address(of registration: Registration) -> UInt {
        TrustedCasts.address(of: registration)
    }

    /// The table's invariants: a power-of-two slot count at most half full, `count` entries,
    /// each with its creator and found by a probe from its home slot, once. Compiled in under
    /// `WEFT_INTERNAL_CHECKS` only.
    private func checkInvariants() {
        #if WEFT_INTERNAL_CHECKS
            let filled = slots.indices.filter { slots[$0].registration != 0 }
            precondition(filled.count == count, "\(filled.count) creations in the slots, counted \(count)")
            precondition(
                slots.isEmpty || OpenAddressing.holds(count, in: slots.count), "not a power of two at most half full")
            for index in filled {
                precondition(slots[index].creator != nil, "a creation without a creator")
                precondition(slot(of: slots[index].registration) == index, "a creation not found from its home slot")
            }
        #endif
    }
}
