/// The values one container caches, and what it has published of them to lock-free readers
/// (a ``CacheTable`` and a ``TransientTable``, in its ``PublishedWords``). Lives in the
/// container's locked state; every method is called with the lock held.
///
/// A value is *filed* once it is in ``filedInstances`` (and, if the container disposes it, in
/// ``filedDisposables``). The cold path leaves the class instances it makes *unfiled*: in the
/// published table alone, each at the slot ``unfiled`` records, so that a graph built once
/// writes no dictionary and no disposal list, nor reads any class's metadata. Those slot
/// numbers index the current table, so the table may be replaced only once they are filed:
/// ``replaceTable(_:to:_:)`` is the only code that replaces it, and it files first. The
/// readers that need every value (``allInstances()``, ``takeDisposables()``) file first too.
/// No pointer is handled here: the table fences its own memory.
struct CachedValues {
    /// The values cached here, strongly or weakly held, once filed.
    private var filedInstances: [ServiceKey: StoredInstance] = [:]
    /// The values this container created and cached strongly, and the instances it owns, in
    /// creation order, once filed: ``Container/shutdown()`` disposes the ``Disposable`` ones,
    /// in reverse. Whether a value is ``Disposable`` is asked at shutdown (or when the value is
    /// forgotten), not when it is made.
    // History: a conformance lookup per value made was a seventh of a cold build.
    private var filedDisposables: [(key: ServiceKey, value: any Sendable)] = []
    /// The slots of ``current`` holding class instances made on the cold path and not filed
    /// yet, in creation order after those in ``filedDisposables``: 4 bytes a value.
    private var unfiled: [UInt32] = []

    /// The table readers see, kept alive here, and how many values it holds.
    private var current: CacheTable?
    /// Every table published before `current` and replaced to lose keys (or unpublished):
    /// a reader may still be inside one, so they live as long as the container. At most
    /// ``retirementLimit`` of them.
    private var retired: [CacheTable] = []
    /// The tables replaced by a larger one as values were added, kept alive the same way: as
    /// the table only grows, fewer than one per doubling of the values cached.
    private var outgrown: [CacheTable] = []

    /// While set, nothing is published: every cached read takes the lock, where it can be
    /// traced (``Diagnostics/onResolution``).
    private(set) var isSuspended = false
    /// Set by ``close(to:)``: nothing is published again.
    private var isClosed = false

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

    /// A cache that never publishes: a validation copy's, which records every step.
    static var unpublished: CachedValues {
        var cache = CachedValues(publishesTransients: false)
        (cache.isClosed, cache.isSuspended) = (true, true)
        return cache
    }

    /// The most values the first table has room for, however many registrations there are
    /// (4,096: 128 KB of slots, 32 bytes a value), and the list of unfiled slots, the
    /// dictionary of values and the disposal list with it: beyond, they grow as values are
    /// cached. Up to it, a graph built cold never regrows them (a table regrown copies every
    /// slot). The price: a container of that many registrations reserves about 150 KB when it
    /// caches its first class instance (about 1 MB when the values are not class instances,
    /// which go into the dictionary and the disposal list), and a table republished without a
    /// forgotten key is as large (see ``retirementLimit``).
    // History: from the 256 this was, the first cold build of the 2,000-class graph regrew
    // three times.
    static let initialRoomLimit = 4_096

    /// At most this many tables are retired: the last publication before the limit is of no
    /// table at all, and from then on cached values are read under the lock.
    static let retirementLimit = 32

    // MARK: Reading values

    /// The value cached for `key`, without filing anything: the dictionary's, else the
    /// published table's (which holds every unfiled value).
    @inline(__always)
    func storedInstance(for key: ServiceKey) -> StoredInstance? {
        if let stored = filedInstances[key] { return stored }
        // Probed first: a creation's lookup misses, and no optional value is made to miss.
        guard !unfiled.isEmpty, publishes(key) else { return nil }
        return value(for: key).map { .strong($0) }
    }

    /// Whether nothing is cached nor published: forgetting or invalidating keys changes nothing.
    @inline(__always)
    var isBare: Bool { filedInstances.isEmpty && unfiled.isEmpty && current == nil && currentTransients == nil }

    /// Every value cached here, filed first.
    mutating func allInstances() -> [ServiceKey: StoredInstance] {
        fileUnfiled()
        return filedInstances
    }

    /// How many values are unfiled (for tests).
    var unfiledCount: Int { unfiled.count }

    // MARK: Caching values

    /// Caches `stored` for `key` (`nil`: forgets it) without publishing it: a weak value, an
    /// `instance:` registration's. Filed first: an unfiled value of `key` would come back.
    mutating func setInstance(_ stored: StoredInstance?, for key: ServiceKey) {
        fileUnfiled()
        filedInstances[key] = stored
    }

    /// Keeps `value`, an instance the container owns, for ``Container/shutdown()`` to dispose.
    mutating func appendDisposable(_ value: any Sendable, for key: ServiceKey) {
        fileUnfiled()
        filedDisposables.append((key, value))
    }

    /// Every value to dispose, in creation order, filed first.
    mutating func disposables() -> [(key: ServiceKey, value: any Sendable)] {
        fileUnfiled()
        return filedDisposables
    }

    /// Every value to dispose, in creation order, handed over: none is kept.
    mutating func takeDisposables() -> [(key: ServiceKey, value: any Sendable)] {
        fileUnfiled()
        defer { filedDisposables = [] }
        return filedDisposables
    }

    /// Caches `value` strongly for `key`, publishes it to lock-free readers, and, when
    /// `disposes`, keeps it for ``Container/shutdown()`` to dispose.
    ///
    /// A class instance (`object`, when the caller knows it is one) goes into the published
    /// table alone, unfiled. The first value cached reserves room for as many values as there
    /// are `registrations` (up to ``initialRoomLimit``, as the first published table does), so
    /// that a graph built cold never regrows the list of unfiled slots, the dictionary or the
    /// disposal list.
    mutating func cacheStrongly(
        _ value: any Sendable, object: ObjectAddress? = nil, for key: ServiceKey, disposes: Bool,
        registrations: Int, publishingTo slot: SnapshotSlot
    ) {
        // Into the published table when it has room: the common case, which needs neither the
        // dictionary nor the disposal list. `value` keeps `object` alive meanwhile.
        if let object, disposes {
            if unfiled.isEmpty, filedDisposables.isEmpty {
                // The first value: the table it goes in, and room for every registration's.
                if current == nil, !isSuspended, mayPublish {
                    replaceTable(.retired, to: slot) {
                        Self.table(of: $0, roomFor: min(registrations, Self.initialRoomLimit))
                    }
                }
                unfiled.reserveCapacity(min(registrations, Self.initialRoomLimit))
            }
            if let index = insertIfRoom(object: object, for: key) {
                unfiled.append(UInt32(truncatingIfNeeded: index))
                #if WEFT_INTERNAL_CHECKS
                    checkUnfiled()
                #endif
                return
            }
        }
        fileUnfiled()
        if filedInstances.isEmpty {
            let room = min(registrations, Self.initialRoomLimit)
            filedInstances.reserveCapacity(room)
            if disposes { filedDisposables.reserveCapacity(room) }
        }
        filedInstances[key] = .strong(value)
        if !insertIfRoom(value, for: key) { publish(value, for: key, registrations: registrations, to: slot) }
        if disposes { filedDisposables.append((key, value)) }
    }

    /// `value`, cached strongly for `key`, found under the lock: published, if readers of the
    /// table missed it (the table holds every unfiled value already: nothing is filed to find
    /// that out).
    mutating func publishFound(_ value: any Sendable, for key: ServiceKey, registrations: Int, to slot: SnapshotSlot) {
        guard !publishes(key) else { return }
        publish(value, for: key, registrations: registrations, to: slot)
    }

    // MARK: Forgetting values

    /// Forgets the value cached for each of `keys` and publishes a table without them (and
    /// transient registrations without them).
    /// - Returns: Whether this stopped lock-free reads (see ``retirementLimit``).
    mutating func forget(
        _ keys: some Sequence<ServiceKey>, _ registrations: [ServiceKey: Registration],
        _ inherited: [ServiceKey: InheritedRegistration], in slot: SnapshotSlot
    ) -> Bool {
        fileUnfiled()
        // Skipped while nothing is cached: a second hash and probe on every registration.
        if !filedInstances.isEmpty {
            var released: Set<ServiceKey> = []
            for key in keys where filedInstances.removeValue(forKey: key) != nil { released.insert(key) }
            // A forgotten value that shutdown would not dispose is not kept for it either.
            if !released.isEmpty {
                filedDisposables.removeAll { released.contains($0.key) && !($0.value is any Disposable) }
            }
        }
        return invalidate(keys, registrations, inherited, in: slot)
    }

    /// The values of `keys` were removed or replaced: readers must not see the old ones.
    ///
    /// - Returns: `true` when this call used the last retirement, so that from now on cached
    ///   values of this container are read under its lock.
    @discardableResult
    mutating func invalidate(
        _ keys: some Sequence<ServiceKey>, _ registrations: [ServiceKey: Registration],
        _ inherited: [ServiceKey: InheritedRegistration], in slot: SnapshotSlot
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
            replaceTable(.retired, to: slot) { _ in nil }
        } else {
            // The same size: a table never shrinks, so that it is outgrown only as values grow.
            let room = current.capacity / 2
            replaceTable(.retired, to: slot) { Self.table(of: $0, roomFor: room) }
        }
        return exhausts || exhaustsValues
    }

    // MARK: What is published

    /// Whether readers currently see a table holding `key`.
    @inline(__always)
    func publishes(_ key: ServiceKey) -> Bool {
        current?.contains(key) ?? false
    }

    /// The value the published table holds for `key`, read under the container's lock.
    @inline(__always)
    private func value(for key: ServiceKey) -> (any Sendable)? {
        current?.value(for: key) ?? nil
    }

    /// How many tables were replaced to lose keys, or unpublished, and are kept until the
    /// container is released.
    var retiredCount: Int { retired.count }
    /// How many transient tables were replaced and are kept until the container is released.
    var retiredTransientCount: Int { retiredTransients.count }

    /// Whether readers currently see `key` among the published transient registrations.
    func publishesTransient(_ key: ServiceKey) -> Bool { currentTransients?.contains(key) ?? false }

    /// Starts or stops publishing transient registrations; stopping unpublishes them.
    mutating func setPublishesTransients(_ publishes: Bool, to slot: SnapshotSlot) {
        guard publishes != publishesTransients, !isClosed else { return }
        publishesTransients = publishes
        if !publishes, currentTransients != nil { publishTransients(nil, to: slot) }
    }

    /// Unpublishes values and transient registrations for good: the container shut down.
    mutating func close(to slot: SnapshotSlot) {
        isClosed = true
        isSuspended = true
        publishesTransients = false
        if current != nil { replaceTable(.retired, to: slot) { _ in nil } }
        if currentTransients != nil { publishTransients(nil, to: slot) }
    }

    /// Stops or resumes publishing; stopping unpublishes what readers see, resuming publishes
    /// the values cached meanwhile.
    mutating func setSuspended(_ suspended: Bool, to slot: SnapshotSlot) {
        guard suspended != isSuspended, !isClosed else { return }
        isSuspended = suspended
        if suspended, current != nil { replaceTable(.retired, to: slot) { _ in nil } }
        if !suspended, mayPublish, filedInstances.values.contains(where: \.isStrong) {
            // Nothing is unfiled while suspended: nothing was published to leave values in.
            replaceTable(.retired, to: slot) { Self.table(of: $0, roomFor: 0) }
        }
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

    // MARK: Replacing the table

    /// Why a table is replaced: it was outgrown (kept with the tables outgrown, fewer than one
    /// per doubling), or it lost keys or was unpublished (retired, at most ``retirementLimit``).
    private enum Replacement {
        case outgrown, retired
    }

    /// Whether a table may still be published: one retirement must stay available for
    /// publishing none.
    private var mayPublish: Bool { retired.count + 1 < Self.retirementLimit }

    /// Replaces the published table with the one `make` builds from every value filed (or with
    /// none): the only code that replaces it. Files the unfiled values first, whose slot numbers
    /// index the table being replaced; `make` sees them filed.
    private mutating func replaceTable(
        _ replacement: Replacement, to slot: SnapshotSlot,
        _ make: (_ filed: [ServiceKey: StoredInstance]) -> CacheTable?
    ) {
        fileUnfiled()
        let made = make(filedInstances)
        if let current {
            switch replacement {
            case .outgrown: outgrown.append(current)
            case .retired: retired.append(current)
            }
        }
        current = made
        slot.publish(current)
        #if WEFT_INTERNAL_CHECKS
            checkInvariants()
        #endif
    }

    /// Files the class instances the cold path left in the published table alone.
    private mutating func fileUnfiled() {
        guard !unfiled.isEmpty else { return }
        #if WEFT_INTERNAL_CHECKS
            checkUnfiled()
        #endif
        filedInstances.reserveCapacity(filedInstances.count + unfiled.count)
        filedDisposables.reserveCapacity(filedDisposables.count + unfiled.count)
        CacheTable.borrowing(current) { table in
            for index in unfiled {
                let (key, value) = table.entry(at: Int(index))
                filedInstances[key] = .strong(value)
                filedDisposables.append((key, value))
            }
        }
        unfiled = []
    }

    /// ``CacheTable/insert(_:for:)`` into the published table, when it has room: whether it
    /// did (else call ``publish(_:for:registrations:to:)``).
    @inline(__always)
    private mutating func insertIfRoom(_ value: any Sendable, for key: ServiceKey) -> Bool {
        // Borrowed: `current?.hasRoom` would retain the table for the call.
        guard !isSuspended, CacheTable.borrowing(&current, { $0.hasRoom }) == true else { return false }
        _ = CacheTable.borrowing(&current) { $0.insert(value, for: key) }
        return true
    }

    /// ``CacheTable/insert(object:for:)`` into the published table, when it has room: the slot
    /// `object` took, or `nil` (the table holds `key`, is full, or nothing is published).
    @inline(__always)
    private mutating func insertIfRoom(object: ObjectAddress, for key: ServiceKey) -> Int? {
        guard !isSuspended, CacheTable.borrowing(&current, { $0.hasRoom }) == true else { return nil }
        return CacheTable.borrowing(&current) { $0.insert(object: object, for: key) } ?? nil
    }

    /// `value` was cached strongly for `key` (or served under the lock, which readers of the
    /// table missed): readers see it from now on, unless publishing is suspended or over.
    ///
    /// The first value publishes a table, with room for what is registered, up to a point: a
    /// graph built cold never outgrows it. A table half full is replaced by one twice its size.
    /// Either way each value is written once more per doubling, a constant per value.
    private mutating func publish(_ value: any Sendable, for key: ServiceKey, registrations: Int, to slot: SnapshotSlot)
    {
        guard !isSuspended else { return }
        guard let table = current else {
            // Never published yet (or unpublished when the limit was reached: then `mayPublish` is false).
            let room = min(registrations, Self.initialRoomLimit)
            if mayPublish { replaceTable(.retired, to: slot) { Self.table(of: $0, roomFor: room) } }
            return
        }
        if table.hasRoom {
            // One probe: the key is looked for where it would go.
            table.insert(value, for: key)
            return
        }
        if table.contains(key) { return }
        let room = table.count + 1
        replaceTable(.outgrown, to: slot) { filed in
            let larger = Self.table(of: filed, roomFor: room)
            larger.insert(value, for: key)
            return larger
        }
    }

    /// A table of the strong values in `instances`, with room for `entries` values (at least).
    private static func table(of instances: [ServiceKey: StoredInstance], roomFor entries: Int) -> CacheTable {
        var strong = 0
        for stored in instances.values where stored.isStrong { strong += 1 }
        let table = CacheTable(roomFor: max(entries, strong))
        for (key, stored) in instances {
            if case .strong(let value) = stored { table.insert(value, for: key) }
        }
        return table
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

    // MARK: Internal checks

    /// The unfiled slots index the current table, within its count: cheap enough for every
    /// insertion. Compiled in under `WEFT_INTERNAL_CHECKS` only.
    @inline(__always)
    private func checkUnfiled() {
        #if WEFT_INTERNAL_CHECKS
            precondition(unfiled.isEmpty || current != nil, "values are unfiled, but no table holds them")
            precondition(unfiled.count <= current?.count ?? 0, "more values unfiled than the table holds")
            if let last = unfiled.last, let current {
                precondition(Int(last) < current.capacity, "an unfiled slot past the table's end")
            }
        #endif
    }

    /// Every invariant, after the table was replaced: nothing unfiled (the filing rule), the
    /// table's own invariants, and every strong value filed is
    /// published unless publishing is suspended or over. Compiled in under
    /// `WEFT_INTERNAL_CHECKS` only.
    private func checkInvariants() {
        #if WEFT_INTERNAL_CHECKS
            precondition(unfiled.isEmpty, "the table was replaced while values were unfiled in it")
            guard let current else { return }
            current.checkInvariants()
            for (key, stored) in filedInstances where stored.isStrong {
                precondition(current.contains(key), "a cached value of \(key) is not published")
            }
            precondition(retired.count < Self.retirementLimit, "more tables retired than the limit")
        #endif
    }
}
