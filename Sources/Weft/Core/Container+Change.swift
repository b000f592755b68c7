import Logging
import WeftPrimitives

/// What a change to a container's registrations did under its lock: which keys' registration
/// in force changed, and what becomes of the values cached for them. Every change returns one
/// to ``Container/change(_:)``, which does the rest.
enum RegistrationChange {
    /// Nothing changed: a staged registration, an override already restored.
    case none
    /// One key's registration changed (every `register`, without an array): its values are
    /// forgotten here and in every descendant that inherits it, unless `replacesValue` says
    /// the change set its value itself (an `instance:` registration's), which readers then see
    /// in place of the old.
    case one(ServiceKey, replacesValue: Bool)
    /// Several keys' registrations changed, as for ``one(_:replacesValue:)``; and values
    /// forgotten here alone, their registrations unchanged (`forgottenHere`): a reset's, which
    /// reaches descendants itself, or what `removeAll()` forgets of ancestors' registrations.
    case many([ServiceKey], replacesValues: Bool = false, forgottenHere: [ServiceKey] = [])

    /// A change of `key`'s registration that forgets its values.
    static func one(_ key: ServiceKey) -> RegistrationChange { .one(key, replacesValue: false) }
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
    @inline(__always)
    func change(_ body: (inout State) -> RegistrationChange) {
        // What descendants forget, and whether lock-free reads stopped.
        let (inherited, exhausted) = state.withLock { state -> ([ServiceKey], Bool) in
            let change = body(&state)
            switch consume change {
            case .none:
                return ([], false)
            case .one(let key, let replacesValue):
                state.forgetCreation(of: key)
                let keys = CollectionOfOne(key)
                let exhausted = replacesValue ? state.invalidate(keys, in: snapshot) : state.forget(keys, in: snapshot)
                return (state.children.isEmpty ? [] : [key], exhausted)
            case .many(let keys, let replacesValues, let here):
                for key in keys { state.forgetCreation(of: key) }
                for key in here { state.forgetCreation(of: key) }
                let inherited = state.children.isEmpty ? [] : keys
                guard replacesValues else { return (inherited, state.forget(keys + here, in: snapshot)) }
                let exhausted = state.invalidate(keys, in: snapshot)
                return (inherited, here.isEmpty ? exhausted : state.forget(here, in: snapshot) || exhausted)
            }
        }
        if exhausted { noteLockFreeReadsStopped() }
        if !inherited.isEmpty { forgetInDescendants(inherited) }
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
                return .many(inherited)
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
