import Atomics

/// The values one container caches strongly, and its own synchronous transient registrations,
/// readable without its lock: a cached resolve, and a transient's, take no lock.
///
/// Immutable once built. The container publishes its current snapshot through a
/// ``SnapshotSlot`` and keeps every snapshot it ever published alive until it is released
/// itself, so a reader may use a loaded snapshot without retaining it: a cached resolve takes
/// no lock and writes no shared memory except the value's own reference count.
final class CacheSnapshot: Sendable {
    /// Open addressing with linear probing, at most half full, a power-of-two slot count.
    /// Parallel arrays rather than one array of structs: probing reads plain integers, and a
    /// hit copies out only the value (a struct element would be copied whole, key included).
    ///
    /// Per slot: the key's type address (0 for an empty slot), its name, its value, and the
    /// value again as a plain reference if it is a class instance: copying that out is one
    /// retain and casting it is a class check, where an existential needs value witnesses.
    private let types: [UInt]
    private let names: [String?]
    private let values: [any Sendable]
    private let objects: [(any AnyObject & Sendable)?]
    /// A transient registration's slot: its registration (its value slot is a placeholder),
    /// and the ancestor holding it when it is inherited (`nil`: this container's own).
    private let transients: [Registration?]
    private let owners: [Container?]
    /// `UInt.bitWidth - log2(slot count)`: a key's scrambled hash, shifted right by this,
    /// is its home slot.
    private let shift: Int

    init(
        _ entries: [(key: ServiceKey, value: any Sendable)],
        transients registrations: [(registration: Registration, owner: Container?)] = []
    ) {
        var bits = 1
        while 1 << bits < (entries.count + registrations.count) * 2 { bits += 1 }
        let shift = UInt.bitWidth - bits
        var types = [UInt](repeating: 0, count: 1 << bits)
        var names = [String?](repeating: nil, count: 1 << bits)
        var values = [any Sendable](repeating: (), count: 1 << bits)
        var objects = [(any AnyObject & Sendable)?](repeating: nil, count: 1 << bits)
        var transients = [Registration?](repeating: nil, count: registrations.isEmpty ? 0 : 1 << bits)
        var owners = [Container?](repeating: nil, count: registrations.isEmpty ? 0 : 1 << bits)
        for (registration, owner) in registrations {
            var index = Self.home(of: registration.key, shift: shift)
            while types[index] != 0 { index = (index + 1) & (types.count - 1) }
            types[index] = registration.key.typeAddress
            names[index] = registration.key.name
            transients[index] = registration
            owners[index] = owner
        }
        for (key, value) in entries {
            var index = Self.home(of: key, shift: shift)
            while types[index] != 0 { index = (index + 1) & (types.count - 1) }
            types[index] = key.typeAddress
            names[index] = key.name
            values[index] = value
            if type(of: value) is AnyClass {
                // A class instance that was `Sendable` as a value stays so as a reference.
                objects[index] = unsafeBitCast(value as AnyObject, to: (any AnyObject & Sendable).self)
            }
        }
        self.types = types
        self.names = names
        self.values = values
        self.objects = objects
        self.transients = transients
        self.owners = owners
        self.shift = shift
    }

    /// The value cached for `key`, if this snapshot has one.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        guard let slot = slot(of: key), !isTransient(slot) else { return nil }
        return values[slot]
    }

    /// What this snapshot has for `key`: its cached value, or its transient registration.
    @inline(__always)
    func entry(for key: ServiceKey) -> SnapshotEntry? {
        guard let slot = slot(of: key) else { return nil }
        if !transients.isEmpty, let registration = transients[slot] { return .transient(registration, owner: owners[slot]) }
        return .value(values[slot])
    }

    @inline(__always)
    private func isTransient(_ slot: Int) -> Bool {
        !transients.isEmpty && transients[slot] != nil
    }

    /// The value cached for `key` if this snapshot has one and it is a class instance.
    @inline(__always)
    func object(for key: ServiceKey) -> AnyObject? {
        slot(of: key).flatMap { objects[$0] }
    }

    @inline(__always)
    private func slot(of key: ServiceKey) -> Int? {
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

    func contains(_ key: ServiceKey) -> Bool { slot(of: key) != nil }

    /// Fibonacci hashing of the type's address (and the name's hash, for a named key): far
    /// cheaper than `Hasher`, and type metadata addresses differ in their middle bits.
    @inline(__always)
    private static func home(of key: ServiceKey, shift: Int) -> Int {
        var bits = key.typeAddress
        if let name = key.name { bits ^= UInt(bitPattern: name.hashValue) }
        return Int(truncatingIfNeeded: (bits &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)) >> shift)
    }
}

extension ServiceKey {
    /// The address of the key's type metadata: never 0.
    var typeAddress: UInt { UInt(bitPattern: Int(bitPattern: id)) }
}

/// What a ``CacheSnapshot`` holds for a key.
enum SnapshotEntry {
    /// A cached value.
    case value(any Sendable)
    /// A synchronous transient registration, run without the container's lock: the
    /// container's own (`owner` is `nil`) or an ancestor's it resolved before.
    case transient(Registration, owner: Container?)
}

/// Where a container publishes its ``CacheSnapshot``: one atomic reference, written under the
/// container's lock with release ordering and read without it with acquire ordering.
///
/// Unretained on purpose: ``PublishedCache`` owns every snapshot it published for as long as the
/// container lives, so a reader never needs to retain one (no shared write on the read path).
final class SnapshotSlot: Sendable {
    private let published = UnsafeAtomic<Unmanaged<CacheSnapshot>?>.create(nil)

    init() {}

    deinit {
        _ = published.destroy()
    }

    /// The value the published snapshot holds for `key`, if any.
    ///
    /// Unretained: the container keeps every snapshot it published alive as long as it lives,
    /// and the caller is using the container.
    @inline(__always)
    func value(for key: ServiceKey) -> (any Sendable)? {
        withPublished { $0.value(for: key) }
    }

    /// What the published snapshot holds for `key`, if anything; unretained as above.
    @inline(__always)
    func entry(for key: ServiceKey) -> SnapshotEntry? {
        withPublished { $0.entry(for: key) }
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

    /// While set, nothing is published: every cached read takes the lock, where it can be
    /// traced (``Diagnostics/onResolution``).
    private(set) var isSuspended = false

    /// Whether snapshots carry the container's synchronous transient registrations. Not while
    /// resolutions are timed (``Diagnostics/slowResolutionThreshold``: the threshold is read
    /// under the lock) nor in a validation copy, which records every step.
    private(set) var publishesTransients: Bool

    init(publishesTransients: Bool = true) {
        self.publishesTransients = publishesTransients
    }

    /// Starts or stops publishing transient registrations; stopping unpublishes what readers see.
    mutating func setPublishesTransients(_ publishes: Bool, to slot: SnapshotSlot) {
        guard publishes != publishesTransients else { return }
        publishesTransients = publishes
        if !publishes, current != nil { publish(nil, to: slot) }
    }

    /// Stops or resumes publishing; stopping unpublishes what readers see.
    mutating func setSuspended(_ suspended: Bool, to slot: SnapshotSlot) {
        guard suspended != isSuspended else { return }
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
    mutating func noteLockedHit(
        _ instances: [ServiceKey: StoredInstance], _ registrations: [ServiceKey: Registration],
        _ inherited: [ServiceKey: InheritedRegistration], to slot: SnapshotSlot
    ) {
        lockedHits += 1
        // `lockedHits >= 2^k`, written so that it cannot overflow.
        guard mayPublish, !isSuspended, lockedHits >> retired.count > 0 else { return }
        publish(snapshot(of: instances, registrations, inherited), to: slot)
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
        guard let current, keys.contains(where: current.contains) else { return false }
        let exhausts = !mayPublish
        publish(exhausts || isSuspended ? nil : snapshot(of: instances, registrations, inherited), to: slot)
        return exhausts
    }

    /// Unpublishes for good: the container shut down, and resolves nothing lock-free.
    mutating func close(to slot: SnapshotSlot) {
        isSuspended = true
        publishesTransients = false
        if current != nil { publish(nil, to: slot) }
    }

    private mutating func publish(_ snapshot: CacheSnapshot?, to slot: SnapshotSlot) {
        if let current { retired.append(current) }
        current = snapshot
        lockedHits = 0
        slot.publish(snapshot)
    }

    private func snapshot(
        of instances: [ServiceKey: StoredInstance], _ registrations: [ServiceKey: Registration],
        _ inherited: [ServiceKey: InheritedRegistration]
    ) -> CacheSnapshot {
        let values: [(key: ServiceKey, value: any Sendable)] = instances.compactMap { key, stored in
            guard case .strong(let value) = stored else { return nil }
            return (key, value)
        }
        guard publishesTransients else { return CacheSnapshot(values) }
        var transients: [(registration: Registration, owner: Container?)] = registrations.values.lazy
            .filter(\.runsWithoutLock).map { ($0, nil) }
        // An ancestor's transient this container resolved: the memo is forgotten (and this
        // snapshot replaced) when the ancestor changes the key.
        for (key, found) in inherited where registrations[key] == nil && instances[key] == nil && found.registration.runsWithoutLock {
            transients.append((found.registration, found.owner))
        }
        return CacheSnapshot(values, transients: transients)
    }
}
