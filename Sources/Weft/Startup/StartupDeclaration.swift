import WeftPrimitives

/// When start-up makes a service.
public enum StartupTiming: Sendable, Hashable, CustomStringConvertible {
    /// Before the app is ready: the first screen needs it.
    case beforeReady
    /// Once the app is ready, in the background, so that a later screen finds it made.
    case afterReady
    /// Not at start-up: the first resolve makes it, as the container always does.
    case onDemand

    public var description: String {
        switch self {
        case .beforeReady: "before ready"
        case .afterReady: "after ready"
        case .onDemand: "on demand"
        }
    }
}

/// What an app's first screen needs, and when the rest of its services are made: the input of a
/// ``StartupPlan``.
///
/// The first screen's services, and every service they depend on, are made before the app is
/// ready; a service may be marked to be made after ready or on demand, by its key or by the
/// module that registered it (the key wins); the rest are made ``otherwise`` (on demand unless
/// said).
///
/// ```swift
/// container.startup = StartupDeclaration(
///     firstScreen: [ServiceKey(FeedModel.self)],
///     afterReady: [ServiceKey(SearchIndex.self)])
/// ```
public struct StartupDeclaration: Sendable, Hashable {
    /// The services the first screen resolves.
    public var firstScreen: [ServiceKey]
    /// Services to make once the app is ready, in the background.
    public var afterReady: [ServiceKey]
    /// Services to leave to their first resolve.
    public var onDemand: [ServiceKey]
    /// When to make the services each module registered, by module name (``Module/name``):
    /// `.beforeReady` puts all of them on the first screen's path.
    public var modules: [String: StartupTiming]
    /// When to make the services named nowhere above.
    public var otherwise: StartupTiming

    /// A declaration; leave out what you do not mark.
    public init(
        firstScreen: [ServiceKey], afterReady: [ServiceKey] = [], onDemand: [ServiceKey] = [],
        modules: [String: StartupTiming] = [:], otherwise: StartupTiming = .onDemand
    ) {
        self.firstScreen = firstScreen
        self.afterReady = afterReady
        self.onDemand = onDemand
        self.modules = modules
        self.otherwise = otherwise
    }
}

extension Container {
    /// What this app's start-up makes, and when: set it, and ``validate()`` plans the start-up
    /// (``ValidationReport/startupPlan``) and reports the plan's hazards among its problems.
    /// `nil` (the default) plans nothing. It belongs to this container alone (a child or scope
    /// starts without one); a bootstrap's new shared container starts with the one it replaces.
    public var startup: StartupDeclaration? {
        get { state.withLock { $0.startup } }
        set { state.withLock { $0.startup = newValue } }
    }
}
