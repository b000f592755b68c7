import WeftPrimitives

/// A registration put over another until ``restore()`` puts the other back (Factory's
/// `register` then `reset`, or `push`/`pop`), for tests and previews.
///
/// ```swift
/// let override = container.override(API.self) { MockAPI() }
/// defer { override.restore() }
/// ```
///
/// Overrides of one key nest: the last one made is in force, and restoring one, in any order,
/// leaves the others in place. An override is in force over registrations for contexts too;
/// registering the key again (without a context), unregistering it or ``Container/removeAll()``
/// ends every override of it, and restoring one then changes nothing.
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
        file: String = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> Override {
        let registration = Registration(
            key: ServiceKey(type, name: name), lifetime: lifetime ?? defaultLifetime,
            factory: .sync { _, _ in try factory() }, site: RegistrationSite(fileID: file, line: Int(line)),
            keyTypeIsClass: T.self is AnyObject.Type)
        if registration.lifetime == .graph { noteGraphRegistration() }
        change(CollectionOfOne(registration.key)) { state in state.putOverride(registration) ? .given : .none }
        return Override(container: self, registration: registration)
    }

    func restore(_ override: Override) {
        let registration = override.registration
        change(CollectionOfOne(registration.key)) { state in state.restoreOverride(registration) ? .given : .none }
    }
}
