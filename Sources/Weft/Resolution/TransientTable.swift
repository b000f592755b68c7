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
