import Atomics
import WeftPrimitives

/// The values one container caches strongly, readable without its lock: an open-addressing
/// table (linear probing, at most half full, a power-of-two slot count) that only ever gains
/// entries.
///
/// A value goes in the moment it is cached, so a dependency made a moment ago is read
/// lock-free by the next factory that needs it: building a graph cold costs one insertion per
/// value, not a copy of every value so far as an immutable snapshot would. Only the
/// container writes, under its lock; a full table is replaced by one twice its size, and a
/// table that would have to lose a key is replaced by one without it (``CachedValues``). The
/// container keeps every table it published alive until it is released itself, so a reader may
/// use a loaded table without retaining it.
// @unchecked: a slot is written once, under the container's lock, before its type is stored
// with release ordering; readers load the type with acquire ordering before reading the slot.
final class CacheTable: @unchecked Sendable {
    /// The number of slots: a power of two.
    let capacity: Int
    /// How many slots hold a value: written under the container's lock, by insertions.
    private(set) var count = 0

    /// Whether one more value keeps the table at most half full (the one growth rule): else
    /// ``CachedValues`` replaces it with a larger one.
    var hasRoom: Bool { OpenAddressing.holds(count + 1, in: capacity) }
    /// `UInt.bitWidth - log2(capacity)`: see ``OpenAddressing/home(of:shift:)``.
    private let shift: Int
    /// A ``Header`` and the slots after it, in one allocation aligned to 64 bytes: what
    /// ``SnapshotSlot`` publishes (``publishedWord``), so that a read goes from the published
    /// word to the slot it probes with no object and no pointer to the slots between
    /// (``object(for:ofExactly:published:)``).
    let block: UnsafeMutableRawPointer
    /// Per slot, together: the key's type address (0 for an empty slot; its low bit set when
    /// the key has a name) and the value as a plain reference if it is a class instance
    /// (copying that out is one retain and casting it is a class check, where an existential
    /// needs value witnesses). One slot is 16 bytes: a probe that finds a class instance touches
    /// one cache line, and more slots stay in the first-level cache while a graph's factories
    /// read them.
    // History: with the name beside them, the slots of a graph's 191 values took 16 KB, not 8.
    private let slots: UnsafeMutablePointer<Slot>
    /// Each slot's name, read only for a named key; made when the first named key goes in
    /// (before the slot's type is stored, so a reader that sees a named slot sees this too).
    private var names: UnsafeMutablePointer<String?>?
    /// The value of each slot that is not a class instance, as an existential (initialized
    /// only in those slots); made, like ``names``, when the first such value goes in. A class
    /// instance is kept in its slot alone: a graph of classes never makes this, nor copies
    /// its values into it.
    private var values: UnsafeMutablePointer<any Sendable>?

    /// One slot's key type and class instance; `type` first, so that a slot's address is its
    /// type's.
    private struct Slot {
        var type: UInt.AtomicRepresentation
        var object: (any AnyObject & Sendable)?
    }

    /// What a reader may need before the slots, at the start of ``block``: this table,
    /// unretained, for a named key and for a value that is not a class instance. Written
    /// before the table is published, never after.
    private struct Header {
        var table: UnsafeRawPointer?
        /// To 16 bytes, so that no 16-byte slot after it straddles two cache lines.
        var padding = 0
    }

    /// What ``SnapshotSlot`` publishes: ``block``'s address, and in its six low bits (zero in
    /// an address aligned to 64) log2 of ``capacity``. A reader finds the slot it probes
    /// from this word alone, with no dependent load of the table's size.
    var publishedWord: UInt { UInt(bitPattern: block) | UInt(UInt.bitWidth - shift) }

    /// The alignment of ``block``, leaving the low bits of its address to ``publishedWord``.
    private static let blockAlignment = 64

    /// An empty table with room for `entries` values before it is half full.
    init(roomFor entries: Int) {
        let bits = OpenAddressing.bits(holding: entries, minimumBits: 3)
        capacity = 1 << bits
        shift = UInt.bitWidth - bits
        let headerSize = MemoryLayout<Header>.stride
        block = .allocate(byteCount: headerSize + capacity * MemoryLayout<Slot>.stride, alignment: Self.blockAlignment)
        slots = (block + headerSize).bindMemory(to: Slot.self, capacity: capacity)
        slots.initialize(repeating: Slot(type: UInt.AtomicRepresentation(0), object: nil), count: capacity)
        block.bindMemory(to: Header.self, capacity: 1).initialize(to: Header(table: nil))
        block.assumingMemoryBound(to: Header.self).pointee.table = UnsafeRawPointer(
            Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let values {
            for index in 0..<capacity where isFilled(index) && slots[index].object == nil {
                (values + index).deinitialize(count: 1)
            }
            values.deallocate()
        }
        slots.deinitialize(count: capacity)
        block.assumingMemoryBound(to: Header.self).deinitialize(count: 1)
        block.deallocate()
        if let names {
            names.deinitialize(count: capacity)
            names.deallocate()
        }
    }

    /// The class instance cached for `key` in the table published as `word`
    /// (``publishedWord``), if its class is exactly the one whose metadata address is `isa`
    /// (an object's first word): the read every cached resolve makes, inlined into it. An
    /// unnamed key (almost every one) is probed here, from the word alone; a named key goes
    /// through the table.
    @inline(__always)
    static func object(for key: ServiceKey, ofExactly isa: UInt, published word: UInt) -> (
        object: AnyObject?, isPublished: Bool
    ) {
        guard key.name == nil else {
            let header = block(ofPublished: word).assumingMemoryBound(to: Header.self)
            return (namedObject(for: key, ofExactly: isa, in: header), true)
        }
        return object(forUnnamed: key.typeAddress, ofExactly: isa, published: word)
    }

    /// ``object(for:ofExactly:published:)`` for the unnamed key of the type at `type`.
    @inline(__always)
    static func object(forUnnamed type: UInt, ofExactly isa: UInt, published word: UInt) -> (
        object: AnyObject?, isPublished: Bool
    ) {
        let block = block(ofPublished: word)
        let bits = Int(truncatingIfNeeded: word & UInt(blockAlignment - 1))
        var index = OpenAddressing.home(of: type, shift: UInt.bitWidth &- bits)
        let slots = UnsafeMutableRawPointer(mutating: block + MemoryLayout<Header>.stride)
        var slot = slots + index &* MemoryLayout<Slot>.stride
        var filled = UnsafeAtomic<UInt>(at: slot.assumingMemoryBound(to: UInt.AtomicRepresentation.self))
            .load(ordering: .acquiring)
        if filled != type {
            // Past the home slot, where few reads go: only they compute the mask.
            let mask = (1 &<< bits) &- 1
            repeat {
                if filled == 0 { return (nil, false) }
                index = (index &+ 1) & mask
                slot = slots + index &* MemoryLayout<Slot>.stride
                filled = UnsafeAtomic<UInt>(at: slot.assumingMemoryBound(to: UInt.AtomicRepresentation.self))
                    .load(ordering: .acquiring)
            } while filled != type
        }
        // Unretained until its class matches: the table holds it as long as the container.
        let object = slot.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt.self)
        guard isInstance(object, ofExactly: isa) else { return (nil, true) }
        return (
            Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: object).unsafelyUnwrapped)
                .takeUnretainedValue(), true
        )
    }

    /// ``object(for:ofExactly:published:)`` for a named key: out of line, so that the unnamed probe
    /// saves no registers.
    @inline(never)
    private static func namedObject(
        for key: ServiceKey, ofExactly isa: UInt, in header: UnsafePointer<Header>
    ) -> AnyObject? {
        table(of: header)._withUnsafeGuaranteedRef { table in
            table.object(for: key).flatMap {
                isInstance(UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()), ofExactly: isa) ? $0 : nil
            }
        }
    }

    /// Whether `bits`, a slot's reference (0 for none), is an instance of exactly the class
    /// whose metadata address is `isa`: its first word. An Objective-C tagged pointer (a small
    /// `NSNumber`, say) is not an address and has no first word: never on Linux; on Apple
    /// platforms such a value is served by the runtime's cast instead.
    @inline(__always)
    private static func isInstance(_ bits: UInt, ofExactly isa: UInt) -> Bool {
        #if canImport(ObjectiveC) && arch(arm64)
            if bits & (1 << 63) != 0 { return false }
        #elseif canImport(ObjectiveC) && arch(x86_64)
            if bits & 1 != 0 { return false }
        #endif
        guard let object = UnsafeRawPointer(bitPattern: bits) else { return false }
        return object.load(as: UInt.self) == isa
    }

    /// The ``block`` of the table published as `word` (``publishedWord``).
    @inline(__always)
    private static func block(ofPublished word: UInt) -> UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: word & ~UInt(blockAlignment - 1)).unsafelyUnwrapped
    }

    /// The table published as `word` (``publishedWord``), unretained: published tables live
    /// as long as their container (see ``SnapshotSlot``).
    @inline(__always)
    static func withTable<R>(published word: UInt, _ body: (CacheTable) -> R) -> R {
        table(of: block(ofPublished: word).assumingMemoryBound(to: Header.self))._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    private static func table(of header: UnsafePointer<Header>) -> Unmanaged<CacheTable> {
        Unmanaged.fromOpaque(header.pointee.table.unsafelyUnwrapped)
    }

    /// Slot `index`'s type, as an atomic.
    @inline(__always)
    private func type(at index: Int) -> UnsafeAtomic<UInt> {
        UnsafeAtomic<UInt>(
            at: UnsafeMutableRawPointer(slots + index).assumingMemoryBound(to: UInt.AtomicRepresentation.self))
    }

    /// Whether slot `index` holds a value: for the writer, under the container's lock.
    @inline(__always)
    private func isFilled(_ index: Int) -> Bool {
        type(at: index).load(ordering: .relaxed) != 0
    }

    /// What a slot of `key` holds as its type: the type's address, its low bit set for a name
    /// (type metadata is at least 8-byte aligned).
    @inline(__always)
    private static func typeWord(of key: ServiceKey) -> UInt {
        key.name == nil ? key.typeAddress : key.typeAddress | 1
    }

    /// The slot holding `key`, if any.
    @inline(__always)
    private func slot(of key: ServiceKey) -> Int? {
        let type = Self.typeWord(of: key)
        let mask = capacity &- 1
        var index = OpenAddressing.home(of: OpenAddressing.word(of: key), shift: shift)
        while true {
            let slot = self.type(at: index).load(ordering: .acquiring)
            if slot == 0 { return nil }
            if slot == type && (type & 1 == 0 || names.unsafelyUnwrapped[index] == key.name) { return index }
            index = (index &+ 1) & mask
        }
    }

    /// The value cached for `key`, if this table has one.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        guard let index = slot(of: key) else { return nil }
        if let object = slots[index].object { return object }
        return values.unsafelyUnwrapped[index]
    }

    /// The value cached for `key` if this table has one and it is a class instance.
    @inline(__always)
    func object(for key: ServiceKey) -> AnyObject? {
        slot(of: key).flatMap { slots[$0].object }
    }

    func contains(_ key: ServiceKey) -> Bool { slot(of: key) != nil }

    /// Adds `value` for `key` unless the table holds `key` already, in a table less than half
    /// full: whether it added it. Call with the container's lock held; readers see the slot
    /// once its type is stored.
    @discardableResult
    func insert(_ value: any Sendable, for key: ServiceKey) -> Bool {
        guard let index = emptySlot(for: key) else { return false }
        if let object = TrustedCasts.classInstance(value) {
            (slots + index).pointer(to: \.object).unsafelyUnwrapped.pointee = object
        } else {
            if values == nil { values = .allocate(capacity: capacity) }
            (values.unsafelyUnwrapped + index).initialize(to: value)
        }
        self.type(at: index).store(Self.typeWord(of: key), ordering: .releasing)
        count += 1
        #if WEFT_INTERNAL_CHECKS
            checkInsertion(of: key, at: index)
        #endif
        return true
    }

    /// ``insert(_:for:)`` for a value known to be a class instance, the one at address
    /// `object` (alive: the caller holds it): the slot it took (retaining the instance), or
    /// `nil` if the table holds `key` already. No existential is opened: the cold path calls
    /// this without reading the instance's class metadata.
    func insert(object: ObjectAddress, for key: ServiceKey) -> Int? {
        guard let index = emptySlot(for: key) else { return nil }
        let retained = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: object.bits).unsafelyUnwrapped)
            .retain()
        // The slot's reference is `nil` (all zero bits): the retained reference is stored over it.
        UnsafeMutableRawPointer(slots + index).storeBytes(
            of: retained.toOpaque(), toByteOffset: MemoryLayout<UInt>.stride, as: UnsafeMutableRawPointer.self)
        self.type(at: index).store(Self.typeWord(of: key), ordering: .releasing)
        count += 1
        #if WEFT_INTERNAL_CHECKS
            checkInsertion(of: key, at: index)
        #endif
        return index
    }

    /// The slot `key` goes in, its name stored if it has one, unless the table holds `key`.
    @inline(__always)
    private func emptySlot(for key: ServiceKey) -> Int? {
        // Its own loop, not `OpenAddressing.probe` nor `slot(of:)`'s: either way the cold build of
        // the 191-class graph counted one retain more per value (package-benchmark's
        // cold-191-Weft), for a cause not found yet.
        let mask = capacity &- 1
        let type = Self.typeWord(of: key)
        var index = OpenAddressing.home(of: OpenAddressing.word(of: key), shift: shift)
        while true {
            let filled = self.type(at: index).load(ordering: .relaxed)
            if filled == 0 { break }
            if filled == type && (type & 1 == 0 || names.unsafelyUnwrapped[index] == key.name) { return nil }
            index = (index &+ 1) & mask
        }
        #if WEFT_INTERNAL_CHECKS
            precondition(OpenAddressing.holds(count + 1, in: capacity), "an insertion into a table half full")
        #endif
        // Field by field, never the whole slot: readers load the type field atomically, which
        // the caller stores last.
        if type & 1 != 0 {
            if names == nil {
                names = .allocate(capacity: capacity)
                names.unsafelyUnwrapped.initialize(repeating: nil, count: capacity)
            }
            names.unsafelyUnwrapped[index] = key.name
        }
        return index
    }

    /// The key and the value in slot `index`, which holds one: the slot ``insert(object:for:)``
    /// returned. The key is rebuilt from the slot's type address and name; a class instance
    /// is boxed as its class.
    func entry(at index: Int) -> (key: ServiceKey, value: any Sendable) {
        let type = self.type(at: index).load(ordering: .relaxed)
        let name = type & 1 != 0 ? names.unsafelyUnwrapped[index] : nil
        let key = ServiceKey(TrustedCasts.metatype(atAddress: type & ~1), name: name)
        if let object = slots[index].object { return (key, object) }
        return (key, values.unsafelyUnwrapped[index])
    }

    /// `body` given `table`, borrowed from whoever keeps it alive (the ``CachedValues`` that
    /// published it): no retain and release around a read. `nil` for no table.
    @inline(__always)
    static func borrowing<R>(_ table: CacheTable?, _ body: (CacheTable) -> R) -> R? {
        guard let table else { return nil }
        return Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef(body)
    }

    /// ``borrowing(_:_:)-(CacheTable?,_)`` from the variable holding the table, for a writer: a
    /// table read out of a variable the caller may change is otherwise retained for the call.
    /// `body` must not change `table`.
    @inline(__always)
    static func borrowing<R>(_ table: inout CacheTable?, _ body: (CacheTable) -> R) -> R? {
        guard table != nil else { return nil }
        return Unmanaged.passUnretained(table.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
    }

    /// How many slots hold a value: for checks (it visits every slot), where ``count`` is
    /// what insertions counted.
    private var filledSlots: Int {
        (0..<capacity).count(where: isFilled)
    }

    /// The invariants an insertion of `key` at `index` may break, checked after every one (the
    /// whole table is checked when it is replaced, ``checkInvariants()``): at most half full,
    /// `key` found at `index` by a probe from its home slot, and its value there. Compiled in
    /// under `WEFT_INTERNAL_CHECKS` only.
    private func checkInsertion(of key: ServiceKey, at index: Int) {
        #if WEFT_INTERNAL_CHECKS
            precondition(OpenAddressing.holds(count, in: capacity), "more than half full")
            precondition(slot(of: key) == index, "\(key) is not found where it was inserted")
            precondition(slots[index].object != nil || values != nil, "a slot holds neither an instance nor a value")
        #endif
    }

    /// The table's invariants, for the writer under the container's lock: a power-of-two slot
    /// count matching the published word, at most half full, the header naming this table,
    /// every key found where a probe from its home slot looks, and once only; a named slot
    /// has its name, a slot without a class instance has its value. Compiled in under
    /// `WEFT_INTERNAL_CHECKS` only.
    func checkInvariants() {
        #if WEFT_INTERNAL_CHECKS
            precondition(capacity > 0 && capacity & (capacity - 1) == 0, "the slot count is not a power of two")
            precondition(1 << (UInt.bitWidth - shift) == capacity, "the shift does not match the slot count")
            precondition(UInt(bitPattern: block) % UInt(Self.blockAlignment) == 0, "the block is misaligned")
            precondition(
                block.assumingMemoryBound(to: Header.self).pointee.table
                    == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()),
                "the header does not name its table")
            precondition(filledSlots == count, "\(filledSlots) slots hold values, counted \(count)")
            precondition(OpenAddressing.holds(count, in: capacity), "more than half full")
            for index in 0..<capacity where isFilled(index) {
                let (key, _) = entry(at: index)
                precondition(slot(of: key) == index, "\(key) is not found by a probe from its home slot")
                precondition(
                    slots[index].object != nil || values != nil, "a slot holds neither an instance nor a value")
            }
        #endif
    }
}
