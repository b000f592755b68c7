import BenchmarkFixtures
import Synchronization

/// The baseline: the least a thread-safe container can be. One `Mutex` around a dictionary of
/// factories and a dictionary of cached singletons, keyed by `ObjectIdentifier` of the type.
///
/// Deliberately minimal: no cycle detection, no diagnostics, no scopes, no parent; a singleton
/// factory may run twice if two threads race on its first resolve (the first stored value wins).
/// Factories run outside the lock, as in Weft. Cached values are `any Sendable` rather than
/// `Any` only so they can leave the `Mutex` under Swift 6; the cast back costs the same.
final class MutexDictContainer: Sendable {
    private struct Entry: Sendable {
        let isSingleton: Bool
        let make: @Sendable (MutexDictContainer) -> any Sendable
    }

    /// A type plus a name, for named registrations only.
    private struct NamedKey: Hashable {
        let type: ObjectIdentifier
        let name: String
    }

    private struct State {
        var factories: [ObjectIdentifier: Entry] = [:]
        var singletons: [ObjectIdentifier: any Sendable] = [:]
        var named: [NamedKey: Entry] = [:]
    }

    private let state = Mutex(State())

    func register<T: Sendable>(
        _ type: T.Type, singleton: Bool = false, factory: @escaping @Sendable (MutexDictContainer) -> T
    ) {
        let entry = Entry(isSingleton: singleton, make: factory)
        state.withLock { state in
            state.factories[ObjectIdentifier(type)] = entry
            state.singletons[ObjectIdentifier(type)] = nil
        }
    }

    func register<T: Sendable>(_ type: T.Type, name: String, factory: @escaping @Sendable (MutexDictContainer) -> T) {
        let entry = Entry(isSingleton: false, make: factory)
        state.withLock { $0.named[NamedKey(type: ObjectIdentifier(type), name: name)] = entry }
    }

    func resolve<T: Sendable>(_ type: T.Type) -> T? {
        let id = ObjectIdentifier(type)
        let (cached, entry) = state.withLock { state -> ((any Sendable)?, Entry?) in
            if let cached = state.singletons[id] { return (cached, nil) }
            return (nil, state.factories[id])
        }
        if let cached { return cached as? T }
        guard let entry else { return nil }
        let value = entry.make(self)
        guard entry.isSingleton else { return value as? T }
        let winner = state.withLock { state -> any Sendable in
            if let existing = state.singletons[id] { return existing }
            state.singletons[id] = value
            return value
        }
        return winner as? T
    }

    func resolve<T: Sendable>(_ name: String, _ type: T.Type) -> T? {
        let entry = state.withLock { $0.named[NamedKey(type: ObjectIdentifier(type), name: name)] }
        return entry.map { $0.make(self) } as? T
    }
}
