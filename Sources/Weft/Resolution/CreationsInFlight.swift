import WeftPrimitives

/// The values a container is making right now, one entry per registration: who makes it (its
/// ``Creator``) and, once another resolve comes to wait, the ``Creation`` they wait on (made
/// then, so that an uncontended creation costs its entry alone). The one table of creations in
/// flight, for the cold path's steps and the general path's heap frames alike.
///
/// Keyed by the registration's address, a plain word: starting and ending a creation costs a
/// multiplication and a compare or two, no hash of a key, no reference counting. The slots
/// hold plain words only; the few creations someone waits on are kept beside them
/// (``waiting``), which an uncontended creation never touches. A registration
/// lives at least as long as a creation of it runs (its creator holds it), and belongs to one
/// key, so its address names the creation; a change that replaces the key's registration
/// leaves the old creation to finish for those already waiting, while later resolves, which
/// find the new registration, start their own. Every method is called with the container's
/// lock held.
struct CreationsInFlight {
    private struct Entry {
        /// The registration's address; 0 for an empty slot.
        var registration: UInt
        var creator: Creator?
    }

    private var slots: [Entry] = []
    /// The ``Creation`` of each creation in flight that someone waits on, by registration
    /// address. Apart from the slots: an entry holding a reference would cost every start and
    /// end a retain and a release (`cold-191-Weft` counted them: 245 and 403 more per build).
    private var waiting: [UInt: Creation] = [:]
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

    /// Starts the creation of `registration` by `creator`, unless one is in flight: whether it
    /// did.
    @inline(__always)
    mutating func start(_ registration: Registration, by creator: Creator) -> Bool {
        let address = TrustedCasts.address(of: registration)
        if slot(of: address) != nil { return false }
        if !OpenAddressing.holds(count &+ 1, in: slots.count) { grow() }
        slots[probe(for: address).index] = Entry(registration: address, creator: creator)
        count &+= 1
        #if WEFT_INTERNAL_CHECKS
            checkInvariants()
        #endif
        return true
    }

    /// The ``Creation`` to wait on for the creation of `registration` in flight, made now if
    /// nobody waited yet; `nil` when none is in flight.
    mutating func waitable(_ registration: Registration) -> Creation? {
        let address = TrustedCasts.address(of: registration)
        guard let index = slot(of: address), let creator = slots[index].creator else { return nil }
        if let creation = waiting[address] { return creation }
        // The creator's frame or step lives until its creation ends, which takes this lock.
        let creation = Creation(frame: creator.heapFrame())
        waiting[address] = creation
        return creation
    }

    /// How many resolves wait for the creation of `registration` right now.
    func waiterCount(of registration: Registration) -> Int {
        waiting[TrustedCasts.address(of: registration)]?.waiterCount ?? 0
    }

    /// Ends the creation of `registration` by `creator`: the ``Creation`` of those waiting, if
    /// any, for the creator to complete.
    @inline(__always)
    mutating func end(_ registration: Registration, by creator: Creator) -> Creation? {
        let address = TrustedCasts.address(of: registration)
        guard var index = slot(of: address), slots[index].creator == creator else { return nil }
        let creation = waiting.isEmpty ? nil : waiting.removeValue(forKey: address)
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
        return creation
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

    /// The table's invariants: a power-of-two slot count at most half full, `count` entries,
    /// each with its creator and found by a probe from its home slot, once; every creation
    /// waited on in flight. Compiled in under `WEFT_INTERNAL_CHECKS` only.
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
            for address in waiting.keys {
                precondition(slot(of: address) != nil, "a creation waited on that is not in flight")
            }
        #endif
    }
}
