import Atomics
import WeftPrimitives

/// The values one container caches strongly, readable without its lock: an open-addressing
/// table (linear probing, at most half full, a power-of-two slot count) that only ever gains
/// entries.
///
/// A value goes in the moment it is cached, so a dependency made a moment ago is read
/// lock-free by the next factory that needs it: building a graph cold costs one insertion per
/// value, where republishing an immutable snapshot cost a copy of every value so far. Only the
/// container writes, under its lock; a full table is replaced by one twice its size, and a
/// table that would have to lose a key is replaced by one without it (``PublishedCache``). The
/// container keeps every table it published alive until it is released itself, so a reader may
/// use a loaded table without retaining it.
// @unchecked: a slot is written once, under the container's lock, before its type is stored
// with release ordering; readers load the type with acquire ordering before reading the slot.
final class CacheTable: @unchecked Sendable {
    /// The number of slots: a power of two.
    let capacity: Int
    /// `UInt.bitWidth - log2(capacity)`: see ``KeySlots``.
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
    /// one cache line, and the slots of a graph's 191 values take 8 KB, not the 16 KB they took
    /// with the name beside them, so more of them stay in the first-level cache while the
    /// graph's factories read them.
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
    /// from this word alone; loading the table's size from memory first cost a dependent load
    /// per read.
    var publishedWord: UInt { UInt(bitPattern: block) | UInt(UInt.bitWidth - shift) }

    /// The alignment of ``block``, leaving the low bits of its address to ``publishedWord``.
    private static let blockAlignment = 64

    /// An empty table with room for `entries` values before it is half full.
    init(roomFor entries: Int) {
        var bits = 3
        while 1 << bits < entries * 2 { bits += 1 }
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
        let mask = (1 &<< bits) &- 1
        var index = KeySlots.home(ofUnnamed: type, shift: UInt.bitWidth &- bits)
        let slots = UnsafeMutableRawPointer(mutating: block + MemoryLayout<Header>.stride)
        while true {
            let slot = slots + index &* MemoryLayout<Slot>.stride
            let filled = UnsafeAtomic<UInt>(at: slot.assumingMemoryBound(to: UInt.AtomicRepresentation.self))
                .load(ordering: .acquiring)
            if filled == type {
                // Unretained until its class matches: the table holds it as long as the container.
                let bits = slot.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UInt.self)
                guard isInstance(bits, ofExactly: isa) else { return (nil, true) }
                return (
                    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
                        .takeUnretainedValue(), true
                )
            }
            if filled == 0 { return (nil, false) }
            index = (index &+ 1) & mask
        }
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
        var index = KeySlots.home(of: key, shift: shift)
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
        if let object = classInstance(value) {
            (slots + index).pointer(to: \.object).unsafelyUnwrapped.pointee = object
        } else {
            if values == nil { values = .allocate(capacity: capacity) }
            (values.unsafelyUnwrapped + index).initialize(to: value)
        }
        self.type(at: index).store(Self.typeWord(of: key), ordering: .releasing)
        return true
    }

    /// ``insert(_:for:)`` for a value known to be a class instance, the one at address
    /// `object` (alive: the caller holds it): the slot it took (retaining the instance), or
    /// `nil` if the table holds `key` already. No existential is opened: the cold path calls
    /// this without reading the instance's class metadata.
    func insert(object: UInt, for key: ServiceKey) -> Int? {
        guard let index = emptySlot(for: key) else { return nil }
        let retained = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: object).unsafelyUnwrapped).retain()
        // The slot's reference is `nil` (all zero bits): the retained reference is stored over it.
        UnsafeMutableRawPointer(slots + index).storeBytes(
            of: retained.toOpaque(), toByteOffset: MemoryLayout<UInt>.stride, as: UnsafeMutableRawPointer.self)
        self.type(at: index).store(Self.typeWord(of: key), ordering: .releasing)
        return index
    }

    /// The slot `key` goes in, its name stored if it has one, unless the table holds `key`.
    @inline(__always)
    private func emptySlot(for key: ServiceKey) -> Int? {
        let mask = capacity &- 1
        let type = Self.typeWord(of: key)
        var index = KeySlots.home(of: key, shift: shift)
        while true {
            let filled = self.type(at: index).load(ordering: .relaxed)
            if filled == 0 { break }
            if filled == type && (type & 1 == 0 || names.unsafelyUnwrapped[index] == key.name) { return nil }
            index = (index &+ 1) & mask
        }
        // Field by field, never the whole slot: readers load the type field atomically, which
        // the caller stores last. A stored property's key path: the optimizer makes this a
        // constant offset.
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
        let key = ServiceKey(unsafeBitCast(type & ~1, to: Any.Type.self), name: name)
        if let object = slots[index].object { return (key, object) }
        return (key, values.unsafelyUnwrapped[index])
    }
}

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
        return (KeySlots(types: types, names: names, shift: shift), placed)
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

/// Where a container publishes its ``CacheTable``: one atomic reference, written under the
/// container's lock with release ordering and read without it with acquire ordering.
///
/// Unretained on purpose: ``PublishedCache`` owns every snapshot it published for as long as the
/// container lives, so a reader never needs to retain one (no shared write on the read path).
///
/// The two atomic words are the container's first stored property (``PublishedWords``), at a
/// fixed offset from its address: a read goes from the container to the table's slots with one
/// load between, where keeping them in an object of their own cost one dependent load more on
/// every dependency read.
// @unchecked: it points into a container, which the caller keeps alive, and only reads and
// writes its words atomically.
struct SnapshotSlot: @unchecked Sendable {
    private let words: UnsafeMutablePointer<UInt.AtomicRepresentation>

    /// The words of `container`: its first stored property, right after the object header (the
    /// same address the standard library's `_getUnsafePointerToStoredProperties` gives).
    @inline(__always)
    init(of container: Container) {
        words = _getUnsafePointerToStoredProperties(container).assumingMemoryBound(
            to: UInt.AtomicRepresentation.self)
    }

    /// Word `index` as an atomic: 0, the ``CacheTable``'s ``CacheTable/publishedWord``; 1, the
    /// ``TransientTable``'s address, unretained. Either is 0 while none is published.
    @inline(__always)
    private func word(_ index: Int) -> UnsafeAtomic<UInt> {
        UnsafeAtomic(at: words + index)
    }

    /// The synchronous transient registration for `key` readers may run without the lock, if
    /// any; unretained as the values are.
    @inline(__always)
    func transient(for key: ServiceKey) -> (registration: Registration, owner: Container?)? {
        let bits = word(1).load(ordering: .acquiring)
        guard let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<TransientTable>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.registration(for: key) }
    }

    /// Makes `table` the transient registrations readers see; the same rules as ``publish(_:)``.
    func publishTransients(_ table: TransientTable?) {
        word(1).store(Self.bits(of: table), ordering: .releasing)
    }

    /// The value the published snapshot holds for `key`, if any.
    ///
    /// Unretained: the container keeps every snapshot it published alive as long as it lives,
    /// and the caller is using the container.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        let word = published
        guard word != 0 else { return nil }
        return CacheTable.withTable(published: word) { $0.value(for: key) }
    }

    /// The class instance the published snapshot holds for `key`, if its class is exactly the
    /// one whose metadata address is `isa`: probed from the published block itself
    /// (``CacheTable/object(for:ofExactly:published:)``).
    @inline(__always)
    func object(for key: ServiceKey, ofExactly isa: UInt) -> (object: AnyObject?, isPublished: Bool) {
        let word = published
        guard word != 0 else { return (nil, false) }
        return CacheTable.object(for: key, ofExactly: isa, published: word)
    }

    /// ``object(for:ofExactly:)`` for the unnamed key of the class whose metadata address is
    /// `isa`.
    @inline(__always)
    func object(forUnnamed isa: UInt) -> (object: AnyObject?, isPublished: Bool) {
        let word = published
        guard word != 0 else { return (nil, false) }
        return CacheTable.object(forUnnamed: isa, ofExactly: isa, published: word)
    }

    /// The published table's ``CacheTable/publishedWord``, or 0 while none is published.
    @inline(__always)
    private var published: UInt { word(0).load(ordering: .acquiring) }

    /// Makes `snapshot` the table readers see. Call with the container's lock held, and keep
    /// `snapshot` alive for as long as the container lives.
    func publish(_ snapshot: CacheTable?) {
        word(0).store(snapshot?.publishedWord ?? 0, ordering: .releasing)
    }

    private static func bits(of object: AnyObject?) -> UInt {
        object.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0
    }
}

/// The two atomic words of a ``SnapshotSlot``, stored in the container: the cache table's
/// published word and the transient table's address, both 0 until something is published.
// @unchecked: the words are only ever read and written atomically, through their address.
struct PublishedWords: @unchecked Sendable {
    private let cache = UInt.AtomicRepresentation(0)
    private let transients = UInt.AtomicRepresentation(0)
}

/// What a container has published of its cache, and when it publishes again. Lives in the
/// container's locked state; every method is called with the lock held.
struct PublishedCache {
    /// The table readers see, kept alive here, and how many values it holds.
    private var current: CacheTable?
    private var currentCount = 0
    /// Every table published before `current` and replaced to lose keys (or unpublished):
    /// a reader may still be inside one, so they live as long as the container. At most
    /// ``retirementLimit`` of them.
    private var retired: [CacheTable] = []
    /// The tables replaced by a larger one as values were added, kept alive the same way: as
    /// the table only grows, fewer than one per doubling of the values cached.
    private var outgrown: [CacheTable] = []

    /// How many tables were replaced to lose keys, or unpublished, and are kept until the
    /// container is released.
    var retiredCount: Int { retired.count }
    /// How many transient tables were replaced and are kept until the container is released.
    var retiredTransientCount: Int { retiredTransients.count }

    /// Whether readers currently see `key` among the published transient registrations.
    func publishesTransient(_ key: ServiceKey) -> Bool { currentTransients?.contains(key) ?? false }

    /// While set, nothing is published: every cached read takes the lock, where it can be
    /// traced (``Diagnostics/onResolution``).
    private(set) var isSuspended = false

    /// The transient registrations readers see, and every table published before, kept alive
    /// like the snapshots; republished on the same schedule, counted apart.
    private var currentTransients: TransientTable?
    private var retiredTransients: [TransientTable] = []
    private var lockedTransientHits = 0

    /// Whether transient registrations are published. Not while resolutions are timed
    /// (``Diagnostics/slowResolutionThreshold``, read under the lock) nor in a validation
    /// copy, which records every step; never again once the container shut down.
    private(set) var publishesTransients: Bool

    init(publishesTransients: Bool = true) {
        self.publishesTransients = publishesTransients
    }

    /// Starts or stops publishing transient registrations; stopping unpublishes them.
    mutating func setPublishesTransients(_ publishes: Bool, to slot: SnapshotSlot) {
        guard publishes != publishesTransients, !isClosed else { return }
        publishesTransients = publishes
        if !publishes, currentTransients != nil { publishTransients(nil, to: slot) }
    }

    /// Set by ``close(to:)``: nothing is published again.
    private var isClosed = false

    /// A cache that never publishes: a validation copy's, which records every step.
    static var unpublished: PublishedCache {
        var cache = PublishedCache(publishesTransients: false)
        (cache.isClosed, cache.isSuspended) = (true, true)
        return cache
    }

    /// Unpublishes values and transient registrations for good: the container shut down.
    mutating func close(to slot: SnapshotSlot) {
        isClosed = true
        isSuspended = true
        publishesTransients = false
        if current != nil { publish(nil, count: 0, to: slot) }
        if currentTransients != nil { publishTransients(nil, to: slot) }
    }

    /// A synchronous transient registration was found under the lock: readers missed it.
    /// Publishes the current table of them when due, on the values' schedule.
    mutating func noteLockedTransientHit(
        _ registrations: [ServiceKey: Registration], _ inherited: [ServiceKey: InheritedRegistration],
        to slot: SnapshotSlot
    ) {
        lockedTransientHits += 1
        guard publishesTransients, retiredTransients.count + 1 < Self.retirementLimit,
            lockedTransientHits >> retiredTransients.count > 0
        else { return }
        publishTransients(Self.transients(registrations, inherited), to: slot)
    }

    private mutating func publishTransients(_ table: TransientTable?, to slot: SnapshotSlot) {
        if let currentTransients { retiredTransients.append(currentTransients) }
        currentTransients = table
        lockedTransientHits = 0
        slot.publishTransients(table)
    }

    /// The synchronous transients a container resolves: its own, and the ancestors' it
    /// remembered (the memo is forgotten, and this table replaced, when an ancestor changes
    /// the key).
    private static func transients(
        _ registrations: [ServiceKey: Registration], _ inherited: [ServiceKey: InheritedRegistration]
    ) -> TransientTable {
        var entries: [(registration: Registration, owner: Container?)] = registrations.values.lazy
            .filter(\.runsWithoutLock).map { ($0, nil) }
        for (key, found) in inherited where registrations[key] == nil && found.registration.runsWithoutLock {
            entries.append((found.registration, found.owner))
        }
        return TransientTable(entries)
    }

    /// Stops or resumes publishing; stopping unpublishes what readers see, resuming publishes
    /// the values cached meanwhile.
    mutating func setSuspended(
        _ suspended: Bool, _ instances: [ServiceKey: StoredInstance], to slot: SnapshotSlot
    ) {
        guard suspended != isSuspended, !isClosed else { return }
        isSuspended = suspended
        if suspended, current != nil { publish(nil, count: 0, to: slot) }
        if !suspended, mayPublish, instances.values.contains(where: \.isStrong) {
            publish(Self.table(of: instances, roomFor: 0), to: slot)
        }
    }

    /// Whether readers currently see a snapshot holding `key`.
    @inline(__always)
    func publishes(_ key: ServiceKey) -> Bool {
        guard let current else { return false }
        return Unmanaged.passUnretained(current)._withUnsafeGuaranteedRef { $0.contains(key) }
    }

    /// The most values the first table has room for, however many registrations there are
    /// (4,096: 128 KB of slots, 32 bytes a value), and the list of unfiled slots, the
    /// dictionary of values and the disposal list with it: beyond, they grow as values are
    /// cached. Up to it, a graph built cold never regrows them; a table regrown copies every
    /// slot, and the first cold build of the 2,000-class graph regrew three times from the
    /// 256 this was. The price: a container of that many registrations reserves about 150 KB
    /// when it caches its first class instance (about 1 MB when the values are not class
    /// instances, which go into the dictionary and the disposal list), and a table
    /// republished without a forgotten key is as large (see ``retirementLimit``).
    static let initialRoomLimit = 4_096

    /// At most this many tables are retired: the last publication before the limit is of no
    /// table at all, and from then on cached values are read under the lock.
    static let retirementLimit = 32

    /// Whether a table may still be published: one retirement must stay available for
    /// publishing none.
    private var mayPublish: Bool { retired.count + 1 < Self.retirementLimit }

    /// ``insert(_:for:_:expecting:to:)`` where a table is published and has room for `value`:
    /// whether it did (else call that).
    @inline(__always)
    mutating func insertIfRoom(_ value: any Sendable, for key: ServiceKey) -> Bool {
        guard !isSuspended, let capacity = current?.capacity, (currentCount + 1) * 2 <= capacity else { return false }
        // Borrowed, not retained: `current` keeps the table alive, and `insert` cannot replace it.
        let table = Unmanaged.passUnretained(current.unsafelyUnwrapped)
        if table._withUnsafeGuaranteedRef({ $0.insert(value, for: key) }) { currentCount += 1 }
        return true
    }

    /// ``insert(object:for:)`` into the published table, when it has room: the slot `object`
    /// took, or `nil` (the table holds `key`, is full, or nothing is published).
    @inline(__always)
    mutating func insertIfRoom(object: UInt, for key: ServiceKey) -> Int? {
        guard !isSuspended, let capacity = current?.capacity, (currentCount + 1) * 2 <= capacity else { return nil }
        // Borrowed, not retained (no binding of `current` that would copy it across the call).
        let table = Unmanaged.passUnretained(current.unsafelyUnwrapped)
        let index = table._withUnsafeGuaranteedRef { $0.insert(object: object, for: key) }
        if index != nil { currentCount += 1 }
        return index
    }

    /// Publishes the first table, from `instances`, with room for what is registered (as
    /// ``insert(_:for:_:expecting:to:)`` does for the first value), unless a table is
    /// published, publishing is suspended or over, or retirements ran out.
    mutating func publishFirst(
        _ instances: [ServiceKey: StoredInstance], expecting registrations: Int, to slot: SnapshotSlot
    ) {
        guard current == nil, !isSuspended, mayPublish else { return }
        publish(Self.table(of: instances, roomFor: min(registrations, Self.initialRoomLimit)), to: slot)
    }

    /// The key and value in slot `index` of the published table (see ``CacheTable/entry(at:)``).
    func entry(at index: Int) -> (key: ServiceKey, value: any Sendable) {
        current.unsafelyUnwrapped.entry(at: index)
    }

    /// The value the published table holds for `key`, read under the container's lock.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        guard let current else { return nil }
        return Unmanaged.passUnretained(current)._withUnsafeGuaranteedRef { $0.value(for: key) }
    }

    /// `value` was cached strongly for `key` (or served under the lock, which readers of the
    /// table missed): readers see it from now on, unless publishing is suspended or over.
    ///
    /// The first value publishes a table; a table half full is replaced by one twice its
    /// size. Either way each value is written once more per doubling, a constant per value.
    mutating func insert(
        _ value: any Sendable, for key: ServiceKey, _ instances: [ServiceKey: StoredInstance],
        expecting registrations: Int, to slot: SnapshotSlot
    ) {
        guard !isSuspended else { return }
        guard let table = current else {
            // Never published yet (or unpublished when limit was reached: then `mayPublish` is false).
            // Room for what is registered, up to a point: a graph built cold never outgrows it.
            let room = min(registrations, Self.initialRoomLimit)
            if mayPublish { publish(Self.table(of: instances, roomFor: room), to: slot) }
            return
        }
        if (currentCount + 1) * 2 <= table.capacity {
            // One probe: the key is looked for where it would go.
            if table.insert(value, for: key) { currentCount += 1 }
            return
        }
        if table.contains(key) { return }
        outgrown.append(table)
        var (larger, count) = Self.table(of: instances, roomFor: currentCount + 1)
        if larger.insert(value, for: key) { count += 1 }
        (current, currentCount) = (larger, count)
        slot.publish(larger)
    }

    /// The values of `keys` were removed or replaced: readers must not see the old ones.
    ///
    /// - Returns: `true` when this call used the last retirement, so that from now on cached
    ///   values of this container are read under its lock.
    @discardableResult
    mutating func invalidate(
        _ keys: some Sequence<ServiceKey>, _ instances: [ServiceKey: StoredInstance],
        _ registrations: [ServiceKey: Registration], _ inherited: [ServiceKey: InheritedRegistration],
        in slot: SnapshotSlot
    ) -> Bool {
        var exhausts = false
        if let currentTransients, keys.contains(where: currentTransients.contains) {
            // Replaced at once: a stale registration must not run. Past the limit, none is published.
            let mayRepublish = retiredTransients.count + 1 < Self.retirementLimit
            publishTransients(
                mayRepublish && publishesTransients ? Self.transients(registrations, inherited) : nil, to: slot)
            exhausts = !mayRepublish
        }
        guard let current, keys.contains(where: current.contains) else { return exhausts }
        let exhaustsValues = !mayPublish
        if exhaustsValues || isSuspended {
            publish(nil, count: 0, to: slot)
        } else {
            // The same size: a table never shrinks, so that it is outgrown only as values grow.
            publish(Self.table(of: instances, roomFor: current.capacity / 2), to: slot)
        }
        return exhausts || exhaustsValues
    }

    private mutating func publish(_ table: (table: CacheTable, count: Int), to slot: SnapshotSlot) {
        publish(table.table, count: table.count, to: slot)
    }

    private mutating func publish(_ table: CacheTable?, count: Int, to slot: SnapshotSlot) {
        if let current { retired.append(current) }
        current = table
        currentCount = count
        slot.publish(table)
    }

    /// A table of the strong values in `instances`, with room for `entries` values (at least).
    private static func table(of instances: [ServiceKey: StoredInstance], roomFor entries: Int)
        -> (table: CacheTable, count: Int)
    {
        var strong = 0
        for stored in instances.values where stored.isStrong { strong += 1 }
        let table = CacheTable(roomFor: max(entries, strong))
        for (key, stored) in instances {
            if case .strong(let value) = stored { table.insert(value, for: key) }
        }
        return (table, strong)
    }
}
