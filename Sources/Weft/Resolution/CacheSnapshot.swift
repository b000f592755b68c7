import Atomics

/// The values one container caches strongly, readable without its lock.
///
/// Immutable once built. The container publishes its current snapshot through a
/// ``SnapshotSlot`` and keeps every snapshot it ever published alive until it is released
/// itself, so a reader may use a loaded snapshot without retaining it: a cached resolve takes
/// no lock and writes no shared memory except the value's own reference count.
final class CacheSnapshot: Sendable {
    /// Per slot of `keys`: the value, and the value again as a plain reference if it is a
    /// class instance: copying that out is one retain and casting it is a class check, where an
    /// existential needs value witnesses.
    private let keys: KeySlots
    private let values: [any Sendable]
    private let objects: [(any AnyObject & Sendable)?]

    init(_ entries: [(key: ServiceKey, value: any Sendable)]) {
        let (keys, placed) = KeySlots.placing(entries.map(\.key))
        var values = [any Sendable](repeating: (), count: keys.count)
        var objects = [(any AnyObject & Sendable)?](repeating: nil, count: keys.count)
        for ((_, value), index) in zip(entries, placed) {
            values[index] = value
            if type(of: value) is AnyClass {
                // A class instance that was `Sendable` as a value stays so as a reference.
                objects[index] = unsafeBitCast(value as AnyObject, to: (any AnyObject & Sendable).self)
            }
        }
        self.keys = keys
        self.values = values
        self.objects = objects
    }

    /// The value cached for `key`, if this snapshot has one.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        keys.slot(of: key).map { values[$0] }
    }

    /// The value cached for `key` if this snapshot has one and it is a class instance.
    @inline(__always)
    func object(for key: ServiceKey) -> AnyObject? {
        keys.slot(of: key).flatMap { objects[$0] }
    }

    func contains(_ key: ServiceKey) -> Bool { keys.slot(of: key) != nil }
}

/// The key half of a published table (``CacheSnapshot``, ``TransientTable``): open addressing
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
    private static func home(of key: ServiceKey, shift: Int) -> Int {
        var bits = key.typeAddress
        bits ^= UInt(bitPattern: key.nameHash)
        return Int(truncatingIfNeeded: (bits &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)) >> shift)
    }
}

extension ServiceKey {
    /// The address of the key's type metadata: never 0.
    var typeAddress: UInt { UInt(bitPattern: Int(bitPattern: id)) }
}

/// The synchronous transient registrations a container resolves, readable without its lock:
/// its own, and the ancestors' its scopes resolved before, each with the ancestor holding it.
///
/// Published apart from the ``CacheSnapshot``: values are cached all the time, registrations
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

/// Where a container publishes its ``CacheSnapshot``: one atomic reference, written under the
/// container's lock with release ordering and read without it with acquire ordering.
///
/// Unretained on purpose: ``PublishedCache`` owns every snapshot it published for as long as the
/// container lives, so a reader never needs to retain one (no shared write on the read path).
final class SnapshotSlot: Sendable {
    private let published = UnsafeAtomic<Unmanaged<CacheSnapshot>?>.create(nil)
    /// The ``TransientTable`` readers see; published and kept alive the same way.
    private let publishedTransients = UnsafeAtomic<Unmanaged<TransientTable>?>.create(nil)

    init() {}

    deinit {
        _ = published.destroy()
        _ = publishedTransients.destroy()
    }

    /// The synchronous transient registration for `key` readers may run without the lock, if
    /// any; unretained as the values are.
    @inline(__always)
    func transient(for key: ServiceKey) -> (registration: Registration, owner: Container?)? {
        guard let table = publishedTransients.load(ordering: .acquiring) else { return nil }
        return table._withUnsafeGuaranteedRef { $0.registration(for: key) }
    }

    /// Makes `table` the transient registrations readers see; the same rules as ``publish(_:)``.
    func publishTransients(_ table: TransientTable?) {
        publishedTransients.store(table.map(Unmanaged.passUnretained), ordering: .releasing)
    }

    /// The value the published snapshot holds for `key`, if any.
    ///
    /// Unretained: the container keeps every snapshot it published alive as long as it lives,
    /// and the caller is using the container.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        withPublished { $0.value(for: key) }
    }

    /// The class instance the published snapshot holds for `key`, if any; unretained as above.
    @inline(__always)
    func object(for key: ServiceKey) -> AnyObject? {
        withPublished { $0.object(for: key) }
    }

    /// `body` applied to the published snapshot, or `nil` while none is published.
    @inline(__always)
    private func withPublished<R>(_ body: (CacheSnapshot) -> R?) -> R? {
        guard let snapshot = published.load(ordering: .acquiring) else { return nil }
        return snapshot._withUnsafeGuaranteedRef(body)
    }

    /// Makes `snapshot` the one readers see. Call with the container's lock held, and keep
    /// `snapshot` alive for as long as the container lives.
    func publish(_ snapshot: CacheSnapshot?) {
        published.store(snapshot.map(Unmanaged.passUnretained), ordering: .releasing)
    }
}

/// What a container has published of its cache, and when it publishes again. Lives in the
/// container's locked state; every method is called with the lock held.
struct PublishedCache {
    /// The snapshot readers see, kept alive here.
    private var current: CacheSnapshot?
    /// Every snapshot published before `current`: a reader may still be inside one, so
    /// they live as long as the container.
    private var retired: [CacheSnapshot] = []
    /// Cached values served under the lock since the last publication.
    private var lockedHits = 0

    /// How many snapshots were replaced and are kept until the container is released.
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

    /// Unpublishes values and transient registrations for good: the container shut down.
    mutating func close(to slot: SnapshotSlot) {
        isClosed = true
        isSuspended = true
        publishesTransients = false
        if current != nil { publish(nil, to: slot) }
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

    /// Stops or resumes publishing; stopping unpublishes what readers see.
    mutating func setSuspended(_ suspended: Bool, to slot: SnapshotSlot) {
        guard suspended != isSuspended, !isClosed else { return }
        isSuspended = suspended
        if suspended, current != nil { publish(nil, to: slot) }
    }

    /// Whether readers currently see a snapshot holding `key`.
    func publishes(_ key: ServiceKey) -> Bool { current?.contains(key) ?? false }

    /// At most this many snapshots are retired: the last publication before the limit is of
    /// no snapshot at all, and from then on cached values are read under the lock.
    static let retirementLimit = 32

    /// Whether a new snapshot may still be published: one retirement must stay available
    /// for publishing none.
    private var mayPublish: Bool { retired.count + 1 < Self.retirementLimit }

    /// A strong value was served under the lock: readers of the snapshot missed it.
    ///
    /// Publishes a new snapshot when due. The k-th republication waits for 2^k such hits, so
    /// a hot value is published quickly while the retired snapshots stay few.
    mutating func noteLockedHit(_ instances: [ServiceKey: StoredInstance], to slot: SnapshotSlot) {
        lockedHits += 1
        // `lockedHits >= 2^k`, written so that it cannot overflow.
        guard mayPublish, !isSuspended, lockedHits >> retired.count > 0 else { return }
        publish(Self.snapshot(of: instances), to: slot)
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
        publish(exhaustsValues || isSuspended ? nil : Self.snapshot(of: instances), to: slot)
        return exhausts || exhaustsValues
    }

    private mutating func publish(_ snapshot: CacheSnapshot?, to slot: SnapshotSlot) {
        if let current { retired.append(current) }
        current = snapshot
        lockedHits = 0
        slot.publish(snapshot)
    }

    private static func snapshot(of instances: [ServiceKey: StoredInstance]) -> CacheSnapshot {
        CacheSnapshot(
            instances.compactMap { key, stored in
                guard case .strong(let value) = stored else { return nil }
                return (key, value)
            })
    }
}
