import Logging
import WeftPrimitives

/// What a change to a container's registrations did under its lock: the keys whose
/// registration in force changed, and what becomes of the values cached for them. Every change
/// returns one to ``Container/change(_:)``, which does the rest.
struct RegistrationChange {
    /// The keys whose registration in force changed: the values cached for them are
    /// forgotten here and in every descendant that inherits the key.
    var keys: ChangedKeys
    /// Whether the change set the values of ``keys`` itself (an `instance:` registration's
    /// value, or none): readers lose the old ones, and the new stay.
    var replacesValues = false
    /// Values forgotten here alone, their registrations unchanged: a reset's (which reaches
    /// descendants itself), or what `removeAll()` forgets of ancestors' registrations.
    var forgottenHere: [ServiceKey] = []

    /// Nothing changed: a staged registration, an override already restored.
    static let none = RegistrationChange(keys: .none)
}

/// The keys a change touched: none, one (every `register`, without an array), or several.
enum ChangedKeys: Sequence {
    case none
    case one(ServiceKey)
    case many([ServiceKey])

    var isEmpty: Bool {
        switch self {
        case .none: true
        case .one: false
        case .many(let keys): keys.isEmpty
        }
    }

    var array: [ServiceKey] {
        switch self {
        case .none: []
        case .one(let key): [key]
        case .many(let keys): keys
        }
    }

    func makeIterator() -> Iterator { Iterator(keys: self) }

    /// Walks the keys without making an array of one.
    struct Iterator: IteratorProtocol {
        let keys: ChangedKeys
        var index = 0

        mutating func next() -> ServiceKey? {
            defer { index += 1 }
            switch keys {
            case .none: return nil
            case .one(let key): return index == 0 ? key : nil
            case .many(let keys): return index < keys.count ? keys[index] : nil
            }
        }
    }
}

extension Container {
    /// The one path of every change to registrations: register, `instance:` and `owning:`,
    /// `update` and `install`, contexts, override and restore, a decorator's replacement,
    /// unregister and `removeAll`, reset, and what descendants forget of each.
    ///
    /// Under the lock, `body` changes the registrations and says which keys changed; then
    /// creations in flight for them are forgotten (later resolves start their own) and their
    /// cached values forgotten, or replaced, with what lock-free readers see republished. After
    /// the lock: a note if lock-free reads stopped, and descendants forget what they cached of
    /// the keys they inherit. Forgetting that second half left stale values in scopes: no
    /// caller writes either half itself.
    func change(_ body: (inout State) -> RegistrationChange) {
        let (change, hasChildren, exhausted) = state.withLock { state -> (RegistrationChange, Bool, Bool) in
            let change = body(&state)
            let here = change.forgottenHere
            if change.keys.isEmpty, here.isEmpty { return (change, false, false) }
            for key in change.keys { state.forgetCreation(of: key) }
            for key in here { state.forgetCreation(of: key) }
            var exhausted = false
            if change.replacesValues {
                exhausted = state.invalidate(change.keys, in: snapshot)
                if !here.isEmpty { exhausted = state.forget(here, in: snapshot) || exhausted }
            } else {
                // One republication for both.
                exhausted =
                    here.isEmpty
                    ? state.forget(change.keys, in: snapshot) : state.forget(change.keys.array + here, in: snapshot)
            }
            return (change, !state.children.isEmpty && !change.keys.isEmpty, exhausted)
        }
        if exhausted { noteLockFreeReadsStopped() }
        if hasChildren { forgetInDescendants(change.keys.array) }
    }

    /// Forgets what descendants cached for `keys` from this container's registrations (or its
    /// ancestors'): a descendant's own registration of a key hides the change below it.
    ///
    /// Takes one container's lock at a time, parent before child; a finishing creation checks
    /// its registration under its container's lock, so no stale value survives the replacement.
    func forgetInDescendants(_ keys: [ServiceKey]) {
        for child in state.withLock({ $0.children.alive }) {
            child.change { state in
                let inherited = keys.filter { state.registrations[$0] == nil }
                for key in inherited { state.forgetInherited(key) }
                return RegistrationChange(keys: .many(inherited))
            }
        }
    }

    /// Says through ``diagnostics`` that cached values are read under the lock from now on.
    func noteLockFreeReadsStopped() {
        diagnostics.logger.warning(
            "Cached values were replaced \(CachedValues.retirementLimit) times after being read lock-free; this container now reads them under its lock. Replaced values are released with the container."
        )
    }
}
