/// Why a service could not be resolved, with what to do about it.
public enum ResolutionError: Error, Sendable, CustomStringConvertible {
    /// Nothing is registered for the key. `suggestions` lists the closest registered keys.
    case notRegistered(ServiceKey, path: [ServiceKey], suggestions: [ServiceKey])
    /// The services depend on each other in a loop; `cycle` starts and ends with the same key.
    case circularDependency(cycle: [ServiceKey])
    /// The factory of the service threw `underlying`.
    case factoryFailed(ServiceKey, path: [ServiceKey], underlying: any Error)
    /// The service has an `async` factory but was resolved synchronously.
    case requiresAsync(ServiceKey, path: [ServiceKey])
    /// The resolving task was cancelled while another task was still creating the service.
    case cancelled(ServiceKey, path: [ServiceKey])
    /// The container was shut down (``Container/shutdown()``): it resolves nothing any more.
    case shutDown(ServiceKey)
    /// The service is registered with arguments of the types `registered` but was resolved
    /// with arguments of the types `given` (`Void` for none; a tuple for several).
    case argumentMismatch(ServiceKey, registered: Any.Type, given: Any.Type)

    /// The service whose resolution failed.
    public var key: ServiceKey {
        switch self {
        case .notRegistered(let key, _, _), .factoryFailed(let key, _, _), .requiresAsync(let key, _),
            .cancelled(let key, _), .shutDown(let key), .argumentMismatch(let key, _, _):
            key
        case .circularDependency(let cycle):
            cycle.last ?? ServiceKey(Never.self)
        }
    }

    public var description: String {
        switch self {
        case .notRegistered(let key, let path, let suggestions):
            var text = "No registration for \(key)\(Self.via(path))."
            if !suggestions.isEmpty {
                text += " Did you mean \(suggestions.map { "\($0)" }.joined(separator: ", "))?"
            }
            return text + " Register it with `container.register(\(key.typeName).self) { … }`."
        case .circularDependency(let cycle):
            return "Circular dependency: \(cycle.map(\.description).joined(separator: " → ")). "
                + "Break the loop: inject one side lazily (a factory or `@Injected`) or extract the shared part."
        case .factoryFailed(let key, let path, let underlying):
            return "The factory of \(key)\(Self.via(path)) threw: \(underlying)"
        case .requiresAsync(let key, let path):
            return "\(key)\(Self.via(path)) has an async factory and cannot be resolved synchronously. "
                + "Use `try await resolver.resolve(\(key.typeName).self)` or register a synchronous factory."
        case .cancelled(let key, let path):
            return "Resolving \(key)\(Self.via(path)) was cancelled while another task was still creating it."
        case .shutDown(let key):
            return "Cannot resolve \(key): its container was shut down and its services disposed. "
                + "Resolve from a container that is still running (a new scope, or the one that replaced it)."
        case .argumentMismatch(let key, let registered, let given):
            return "\(key) is registered with arguments \(Self.arguments(registered)) but was resolved with "
                + "\(Self.arguments(given)). Pass \(Self.arguments(registered)), or register a factory that takes \(Self.arguments(given))."
        }
    }

    private static func arguments(_ type: Any.Type) -> String {
        type == Void.self ? "()" : describeArguments(type)
    }

    private static func via(_ path: [ServiceKey]) -> String {
        path.isEmpty ? "" : " (needed by \(path.map(\.description).joined(separator: " → ")))"
    }
}
