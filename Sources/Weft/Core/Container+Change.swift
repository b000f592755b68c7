import Logging
import WeftPrimitives

/// What a change to a container's registrations did under its lock: which keys' registration
/// in force changed, and what becomes of the values cached for them. Every change returns one
/// to ``Container/change(_:)``, which does the rest.
enum RegistrationChange {
    /// Nothing changed: a staged registration, an override already restored.
    case none
    /// The registrations of the keys the change was given changed (every `register` gives its
    /// one key, with no key copied or array made): their values are forgotten here and in every
    /// descendant that inherits them, unless `replacesValue` says the change set them itself
    /// (an `instance:` registration's), which readers then see in place of the old.
    case given(replacesValue: Bool)
    /// Several keys' registrations changed, as for ``given(replacesValue:)``; and values
    /// forgotten here alone, their registrations unchanged (`forgottenHere`): a reset's, which
    /// reaches descendants itself, or what `removeAll()` forgets of ancestors' registrations.
    case many([ServiceKey], replacesValues: Bool = false, forgottenHere: [ServiceKey] = [])

    /// The given key's registration changed, and its values are forgotten.
    static let given = RegistrationChange.given(replacesValue: false)
}

extension Container {
    /// The one path of every change to registrations: register, `instance:` and `owning:`,
    /// `update` and `install`, contexts, override and restore, a decorator's replacement,
    /// unregister and `removeAll`, reset, and what descendants forget of each.
    ///
    /// Under the lock, `body` changes the registrations and says which keys changed: `keys`,
    /// given up front when the change is about known keys (``RegistrationChange/given``), or
    /// those it names; then their cached values are forgotten, or replaced, with what lock-free
    /// readers see republished. (A creation in flight needs nothing: it is keyed by its
    /// registration, so later resolves, which find the new one, start their own; put back, as
    /// by a restore, the registration finds its creation again.) After
    /// the lock: a note if lock-free reads stopped, and descendants forget what they cached of
    /// the keys they inherit. Forgetting that second half left stale values in scopes: no
    /// caller writes either half itself.
    @inline(__always)
    func change<Keys: Collection<ServiceKey> & Sendable>(
        _ keys: Keys = EmptyCollection(), _ body: (inout State) -> RegistrationChange
    ) {
        // What descendants forget (`nil`, not an empty array, when none do: releasing even the
        // empty array's storage is a release every registration would count), and whether
        // lock-free reads stopped.
        let (inherited, exhausted) = state.withLock { state -> ([ServiceKey]?, Bool) in
            let change = body(&state)
            switch consume change {
            case .none:
                return (nil, false)
            case .given(let replacesValue):
                let exhausted = replacesValue ? state.invalidate(keys, in: snapshot) : state.forget(keys, in: snapshot)
                return (state.children.isEmpty ? nil : Array(keys), exhausted)
            case .many(let keys, let replacesValues, let here):
                let inherited = state.children.isEmpty || keys.isEmpty ? nil : keys
                guard replacesValues else { return (inherited, state.forget(keys + here, in: snapshot)) }
                let exhausted = state.invalidate(keys, in: snapshot)
                return (inherited, here.isEmpty ? exhausted : state.forget(here, in: snapshot) || exhausted)
            }
        }
        if exhausted { noteLockFreeReadsStopped() }
        if let inherited { forgetInDescendants(inherited) }
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
