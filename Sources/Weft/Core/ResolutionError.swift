/// Why a service could not be resolved, with what to do about it.
///
/// Check ``code`` to tell failures apart; new codes may be added, so compare with `==` rather
/// than expecting a fixed set:
///
/// ```swift
/// do { _ = try container.require(Database.self) }
/// catch let error as ResolutionError where error.code == .circularDependency {
///     print(error.cycle)   // [Database, Cache, Database]
/// }
/// ```
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// A kind of resolution failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case notRegistered, circularDependency, factoryFailed, requiresAsync, cancelled, shutDown,
                argumentMismatch, requiresIsolation, scopedOutsideScope, liveOnly
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// Nothing is registered for the key; ``ResolutionError/suggestions`` lists the closest
        /// registered keys.
        public static let notRegistered = Code(.notRegistered)
        /// The services depend on each other in a loop; ``ResolutionError/cycle`` starts and
        /// ends with the same key.
        public static let circularDependency = Code(.circularDependency)
        /// The service's factory threw ``ResolutionError/underlyingError``.
        public static let factoryFailed = Code(.factoryFailed)
        /// The service has an `async` factory but was resolved synchronously.
        public static let requiresAsync = Code(.requiresAsync)
        /// The resolving task was cancelled while another task was still creating the service.
        public static let cancelled = Code(.cancelled)
        /// The container was shut down (``Container/shutdown()``): it resolves nothing any more.
        public static let shutDown = Code(.shutDown)
        /// The service was resolved with arguments of other types than it was registered with
        /// (``ResolutionError/registeredArguments``, ``ResolutionError/givenArguments``).
        public static let argumentMismatch = Code(.argumentMismatch)
        /// The service's factory runs on the main actor (``ResolutionError/isolation``), no
        /// value of it is cached, and it was resolved synchronously off the main actor.
        public static let requiresIsolation = Code(.requiresIsolation)
        /// The service is `.scoped` and a resolve would make it in a root container, which is no
        /// scope (resolved from the root, or by a singleton registered there), while
        /// ``Diagnostics/validatesScopes`` is on.
        public static let scopedOutsideScope = Code(.scopedOutsideScope)
        /// The service is marked ``Registered/liveOnly()`` and was resolved in a container
        /// whose contexts include ``Container/Context/test``, where nothing overrides it: no
        /// factory ran.
        public static let liveOnly = Code(.liveOnly)
    }

    /// What kind of failure this is.
    public var code: Code { storage.code }
    /// The service whose resolution failed; for a cycle, the key that closed it.
    public var key: ServiceKey { storage.key }
    /// The services being resolved when ``key`` was needed, outermost first; empty for a root
    /// resolve.
    public var path: [ServiceKey] { storage.path }
    /// For ``Code/circularDependency``, the loop, starting and ending with the same key;
    /// otherwise empty.
    public var cycle: [ServiceKey] { storage.cycle }
    /// For ``Code/notRegistered``, the registered keys closest to ``key``; otherwise empty.
    public var suggestions: [ServiceKey] { storage.suggestions }
    /// For ``Code/factoryFailed``, what the factory threw.
    public var underlyingError: (any Error)? { storage.underlyingError }
    /// For ``Code/argumentMismatch``, the argument types the service is registered with
    /// (`Void` for none, a tuple for several).
    public var registeredArguments: Any.Type? { storage.registeredArguments }
    /// For ``Code/argumentMismatch``, the argument types it was resolved with.
    public var givenArguments: Any.Type? { storage.givenArguments }
    /// Where ``key``, the services in ``path`` and those in ``cycle`` were registered (the
    /// `#fileID` and `#line` of their `register` calls), for those that are registered. Filled
    /// in when the error leaves the container; the description names them.
    public var sites: [ServiceKey: RegistrationSite] { storage.sites }
    /// For ``Code/requiresIsolation``, the actor the service's factory runs on: `MainActor.shared`.
    public var isolation: (any Actor)? { code == .requiresIsolation ? MainActor.shared : nil }

    /// The details, boxed: errors thrown with typed throws travel in every frame of a deep
    /// resolution, so the error itself stays one reference wide.
    private let storage: Storage

    private final class Storage: Sendable {
        let code: Code
        let key: ServiceKey
        let path: [ServiceKey]
        let cycle: [ServiceKey]
        let suggestions: [ServiceKey]
        let underlyingError: (any Error)?
        let registeredArguments: Any.Type?
        let givenArguments: Any.Type?
        let sites: [ServiceKey: RegistrationSite]

        init(
            code: Code,
            key: ServiceKey,
            path: [ServiceKey],
            cycle: [ServiceKey],
            suggestions: [ServiceKey],
            underlyingError: (any Error)?,
            registeredArguments: Any.Type?,
            givenArguments: Any.Type?,
            sites: [ServiceKey: RegistrationSite]
        ) {
            self.code = code
            self.key = key
            self.path = path
            self.cycle = cycle
            self.suggestions = suggestions
            self.underlyingError = underlyingError
            self.registeredArguments = registeredArguments
            self.givenArguments = givenArguments
            self.sites = sites
        }
    }

    private init(
        _ code: Code,
        key: ServiceKey,
        path: [ServiceKey] = [],
        cycle: [ServiceKey] = [],
        suggestions: [ServiceKey] = [],
        underlyingError: (any Error)? = nil,
        registeredArguments: Any.Type? = nil,
        givenArguments: Any.Type? = nil,
        sites: [ServiceKey: RegistrationSite] = [:]
    ) {
        storage = Storage(
            code: code,
            key: key,
            path: path,
            cycle: cycle,
            suggestions: suggestions,
            underlyingError: underlyingError,
            registeredArguments: registeredArguments,
            givenArguments: givenArguments,
            sites: sites
        )
    }

    /// This error with `sites`: where the keys it names were registered.
    func with(sites: [ServiceKey: RegistrationSite]) -> ResolutionError {
        let old = storage
        return ResolutionError(
            old.code, key: old.key, path: old.path, cycle: old.cycle, suggestions: old.suggestions,
            underlyingError: old.underlyingError, registeredArguments: old.registeredArguments,
            givenArguments: old.givenArguments, sites: sites)
    }

    /// Nothing is registered for `key`.
    public static func notRegistered(
        _ key: ServiceKey,
        path: [ServiceKey],
        suggestions: [ServiceKey] = []
    ) -> ResolutionError {
        ResolutionError(.notRegistered, key: key, path: path, suggestions: suggestions)
    }

    /// The services in `cycle` depend on each other in a loop.
    public static func circularDependency(cycle: [ServiceKey]) -> ResolutionError {
        ResolutionError(.circularDependency, key: cycle.last ?? ServiceKey(Never.self), cycle: cycle)
    }

    /// The factory of `key` threw `underlying`.
    public static func factoryFailed(_ key: ServiceKey, path: [ServiceKey], underlying: any Error) -> ResolutionError {
        ResolutionError(.factoryFailed, key: key, path: path, underlyingError: underlying)
    }

    /// `key` has an `async` factory but was resolved synchronously.
    public static func requiresAsync(_ key: ServiceKey, path: [ServiceKey]) -> ResolutionError {
        ResolutionError(.requiresAsync, key: key, path: path)
    }

    /// `key`'s factory runs on the main actor, nothing of it is cached, and the services in
    /// `path` resolved it synchronously off the main actor.
    public static func requiresIsolation(_ key: ServiceKey, path: [ServiceKey]) -> ResolutionError {
        ResolutionError(.requiresIsolation, key: key, path: path)
    }

    /// `key` is `.scoped` and the services in `path` resolved it from a root container.
    public static func scopedOutsideScope(_ key: ServiceKey, path: [ServiceKey]) -> ResolutionError {
        ResolutionError(.scopedOutsideScope, key: key, path: path)
    }

    /// Resolving `key` was cancelled while another task was still creating it.
    public static func cancelled(_ key: ServiceKey, path: [ServiceKey]) -> ResolutionError {
        ResolutionError(.cancelled, key: key, path: path)
    }

    /// `key` is marked ``Registered/liveOnly()`` and the services in `path` resolved it in a
    /// test context, where nothing overrides it.
    public static func liveOnly(_ key: ServiceKey, path: [ServiceKey]) -> ResolutionError {
        ResolutionError(.liveOnly, key: key, path: path)
    }

    /// `key` was resolved from a container that was shut down.
    public static func shutDown(_ key: ServiceKey) -> ResolutionError {
        ResolutionError(.shutDown, key: key)
    }

    /// `key` is registered with arguments of the types `registered` but was resolved with `given`,
    /// by the services in `path`.
    public static func argumentMismatch(
        _ key: ServiceKey,
        registered: Any.Type,
        given: Any.Type,
        path: [ServiceKey] = []
    ) -> ResolutionError {
        ResolutionError(
            .argumentMismatch, key: key, path: path, registeredArguments: registered, givenArguments: given)
    }

    public var description: String {
        switch code {
        case .notRegistered:
            var text = "No registration for \(subject(namingSite: false))."
            if let site = sites[key] {
                // Registered, but where this resolve does not look: most often a child of the
                // container that resolved it (a singleton's dependencies resolve from its own).
                let needer = path.last.map { "\($0)" } ?? "the service that needs it"
                text +=
                    " \(key) is registered at \(site), in a container the resolve of \(needer) does not"
                    + " see: a singleton or weak service resolves its dependencies from the container that"
                    + " registers it, never from that container's children. Register \(key) where \(needer)"
                    + " is registered, or give \(needer) a `.scoped` or `.transient` lifetime."
            }
            if !suggestions.isEmpty {
                text += " Did you mean \(suggestions.map { "\($0)" }.joined(separator: ", "))?"
            }
            // Most often a protocol registered and a type that conforms to it asked for, or the
            // other way: say how to ask for what is registered.
            if let registered = suggestions.first(where: {
                Container.namesHoldEachOther($0.typeName, key.typeName)
            }) {
                let (shorter, longer) =
                    registered.typeName.count < key.typeName.count
                    ? (registered.typeName, key.typeName) : (key.typeName, registered.typeName)
                text +=
                    registered.typeName == shorter
                    ? " If \(shorter) is a protocol \(longer) conforms to, resolve `(any \(shorter)).self`:"
                        + " that is what is registered."
                    : " If \(shorter) is a protocol \(longer) conforms to, register \(longer) as that too"
                        + " (`also: (any \(shorter)).self`), or resolve `\(longer).self`."
            }
            guard sites[key] == nil else { return text }
            return text + " Register it with `container.register(\(key.typeName).self) { … }`."
        case .circularDependency:
            let registered = Array(Set(cycle)).sorted { $0.description < $1.description }.compactMap { key in
                sites[key].map { "\(key) at \($0)" }
            }
            return "Circular dependency: \(cycle.map(\.description).joined(separator: " → "))"
                + (registered.isEmpty ? "" : " (registered: \(registered.joined(separator: ", ")))") + ". "
                + "Break the loop: inject one side lazily (a factory or `@Injected`) or extract the shared part."
        case .factoryFailed:
            return "The factory of \(subject) threw: \(underlyingError.map { "\($0)" } ?? "an error")"
        case .requiresAsync:
            let fix =
                path.last.map { "make the factory of \($0) `async` and resolve it there with " }
                ?? "resolve it with `try await container.resolveAsync(\(key.typeName).self)`, or in a factory with "
            return "\(subject) has an async factory and cannot be resolved synchronously: "
                + fix + "`try await resolver.resolve(\(key.typeName).self)`; or register a synchronous factory."
        case .requiresIsolation:
            return "\(subject) is created on the main actor, and this synchronous resolve runs off it. "
                + "Use `try await container.resolveAsync(\(key.typeName).self)` (it hops to the main actor), "
                + "resolve it from main-actor code, or resolve it there once first: a cached value is served anywhere."
        case .scopedOutsideScope:
            return "\(subject) is scoped, but this resolve makes it in a root container, which is no scope: "
                + "its value would live as long as the root. Resolve it from a scope (`container.createScope()`) "
                + "through services that are not singletons (a singleton resolves from the container that "
                + "registers it), or register it `.singleton` if one instance is meant."
        case .cancelled:
            return "Resolving \(subject) was cancelled while another task was still creating it."
        case .shutDown:
            return "Cannot resolve \(key): its container was shut down and its services disposed. "
                + "Resolve from a container that is still running (a new scope, or the one that replaced it)."
        case .liveOnly:
            return "\(subject) is live only (`.liveOnly()`) and was resolved in a test context, where nothing "
                + "overrides it. \(liveOnlyFix)"
        case .argumentMismatch:
            let registered = Self.arguments(registeredArguments)
            let given = Self.arguments(givenArguments)
            return "\(subject) is registered with arguments \(registered) but was resolved with \(given). "
                + "Pass \(registered), or register a factory that takes \(given)."
        default:
            return "Resolving \(subject) failed (\(code))."
        }
    }

    /// ``key`` with where it was registered and the path that needed it, each step with its
    /// site: `Missing (needed by App at App/main.swift:3 → Feed at App/main.swift:12)`.
    private var subject: String { subject(namingSite: true) }

    /// The service, where it is registered (unless `namingSite` is `false`) and the path that
    /// needed it.
    private func subject(namingSite: Bool) -> String {
        var details: [String] = []
        if namingSite, let site = sites[key] { details.append("registered at \(site)") }
        if !path.isEmpty {
            let steps = path.map { step in sites[step].map { "\(step) at \($0)" } ?? "\(step)" }
            details.append("needed by \(steps.joined(separator: " → "))")
        }
        return details.isEmpty ? "\(key)" : "\(key) (\(details.joined(separator: ", ")))"
    }

    /// What a test that resolved a live-only service should write: the override, with the
    /// key's own spelling and a `Fake…` value where the type's name allows one.
    private var liveOnlyFix: String {
        let others =
            "give its registration a `.testValue { … }`, or run the live wiring on purpose with "
            + "`container.contexts.remove(.test)`."
        guard key.argumentsType == nil else {
            return "Register it again in the test's container with a test double, or " + others
        }
        let typeName = key.typeName
        let isPlainName = typeName.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " }
        let type = typeName.contains(" ") ? "(\(typeName))" : typeName
        let bare = typeName.hasPrefix("any ") ? String(typeName.dropFirst(4)) : typeName
        let fake = isPlainName && !bare.contains(" ") ? "Fake\(bare)()" : "…"
        let name = key.name.map { ", name: \"\($0)\"" } ?? ""
        return "Override it in the test: `container.override(\(type).self\(name)) { \(fake) }`; or " + others
    }

    private static func arguments(_ type: Any.Type?) -> String {
        guard let type, type != Void.self else { return "()" }
        return describeArguments(type)
    }
}
