import WeftPrimitives

extension Container {
    /// Forgets every cached value of `lifetime`, here and in every scope and child below, so
    /// that the next resolve creates it again: e.g. `reset(lifetime: .singleton)` at logout
    /// (Swinject's `resetObjectScope`, Factory's `Scope.reset`). Registrations stay.
    ///
    /// An `instance:` registration counts as a singleton: resetting it hands out the same
    /// instance again. A creation already in flight completes and caches its value.
    public func reset(lifetime: Lifetime) {
        forgetCached { _, cachedLifetime in cachedLifetime == lifetime }
    }

    /// Forgets the value cached for `type` (and `name`, and any arguments), here and in every
    /// scope and child below; the registration stays.
    public func reset<T>(_ type: T.Type, name: String? = nil) {
        let key = ServiceKey(type, name: name)
        forgetCached { cached, _ in cached.withoutArguments == key }
    }

    /// Removes this container's registration of `type` (and `name`, with any arguments) and
    /// the values cached for it, here and in every scope below that does not register it
    /// itself. A parent's registration of the key, if any, shows through again.
    public func unregister<T>(_ type: T.Type, name: String? = nil) {
        let key = ServiceKey(type, name: name)
        remove(forgettingModules: false) { $0.withoutArguments == key }
    }

    /// Removes every registration of this container and every value it cached, and forgets
    /// the modules it installed; scopes below forget what they cached of its registrations.
    public func removeAll() {
        remove(forgettingModules: true) { _ in true }
    }

    /// Removes this container's registrations whose keys match, and what is cached for them.
    private func remove(forgettingModules: Bool, where matches: @Sendable (ServiceKey) -> Bool) {
        change { state in
            // A key may have registrations for contexts that are not active, and no effective one.
            let keys = Array(Set(state.registrations.keys).union(state.variants.keys).filter(matches))
            for key in keys {
                state.registrations[key] = nil
                state.variants[key] = nil
                state.forgetInherited(key)
                if !state.provenance.isEmpty { state.provenance[key] = nil }
                if !state.replaced.isEmpty { state.replaced[key] = nil }
            }
            guard forgettingModules else { return .many(keys) }
            state.installedModules = []
            state.modules = []
            state.contributions = [:]
            // Everything: values cached here of ancestors' registrations go too (unchanged, so
            // descendants keep what they cached of them).
            let removed = Set(keys)
            let ancestors = state.cache.allInstances().keys.filter { !removed.contains($0) }
            return .many(keys, forgottenHere: Array(ancestors))
        }
    }

    /// Forgets the values cached here and below whose key and lifetime match.
    private func forgetCached(where matches: @escaping @Sendable (ServiceKey, Lifetime?) -> Bool) {
        var children: [Container] = []
        change { state in
            children = state.children.alive
            // A scope caches values of its ancestors' registrations: their lifetime is there.
            // Only ancestors' locks are taken while this one is held.
            let keys = state.cache.allInstances().keys.filter { key in
                matches(
                    key, state.registrations[key]?.lifetime ?? parent?.registration(for: key)?.registration.lifetime)
            }
            return .many([], forgottenHere: Array(keys))
        }
        for child in children { child.forgetCached(where: matches) }
    }
}
