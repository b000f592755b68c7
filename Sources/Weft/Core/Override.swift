/// A registration put over another until ``restore()`` puts the other back (Factory's
/// `register` then `reset`, or `push`/`pop`), for tests and previews.
///
/// ```swift
/// let override = container.override(API.self) { MockAPI() }
/// defer { override.restore() }
/// ```
///
/// Overrides of one key nest: restoring one, in any order, leaves the others in place.
public final class Override: Sendable {
    let container: Container
    let registration: Registration

    init(container: Container, registration: Registration) {
        self.container = container
        self.registration = registration
    }

    /// Puts back the registration this override replaced (or none, if there was none) and
    /// forgets the values made by the override, here and in every scope below. Restoring
    /// twice does nothing more.
    public func restore() {
        container.restore(self)
    }
}

extension Container {
    /// Replaces the registration of `type` (and `name`) in this container until the returned
    /// ``Override`` is restored; values cached for the key are forgotten, here and below.
    ///
    /// Unlike registering again, the replaced registration is kept and comes back on
    /// ``Override/restore()``. Applies at once, even inside ``update(_:)``.
    public func override<T: Sendable>(
        _ type: T.Type = T.self,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        factory: @escaping @Sendable () throws -> T
    ) -> Override {
        let registration = Registration(
            key: ServiceKey(type, name: name), lifetime: lifetime ?? defaultLifetime,
            factory: .sync { _ in try factory() })
        if registration.lifetime == .graph { GraphScope.noteInUse() }
        swap(registration.key) { state in
            state.overridden[ObjectIdentifier(registration)] = state.registrations[registration.key]
            state.registrations[registration.key] = registration
            return true
        }
        return Override(container: self, registration: registration)
    }

    func restore(_ override: Override) {
        let registration = override.registration
        let id = ObjectIdentifier(registration)
        swap(registration.key) { state in
            guard let previous = state.overridden.removeValue(forKey: id) else { return false }
            if state.registrations[registration.key] === registration {
                state.registrations[registration.key] = previous
                return true
            }
            // Restored out of order: the override above this one gets what this one replaced.
            // Either way the effective registration stays, and so do the values it made.
            if let above = state.overridden.first(where: { $0.value === registration })?.key {
                state.overridden[above] = previous
            }
            return false
        }
    }

    /// Changes `key`'s registration with `change`; when `change` says the effective
    /// registration changed, forgets what was cached for it.
    private func swap(_ key: ServiceKey, _ change: @Sendable (inout State) -> Bool) {
        let (hasChildren, exhausted) = state.withLock { state -> (Bool, Bool) in
            guard change(&state) else { return (false, false) }
            state.forgetInherited(key)
            state.forgetCreation(of: key)
            return (!state.children.isEmpty, state.forget(CollectionOfOne(key), in: snapshot))
        }
        if exhausted { noteLockFreeReadsStopped() }
        if hasChildren { forgetInDescendants([key]) }
    }
}
