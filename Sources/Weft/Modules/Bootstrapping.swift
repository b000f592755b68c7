/// A launch component that sets itself up, possibly using components set up before it.
///
/// ```swift
/// final class DomainBootstrapping: Bootstrapping {
///     static var dependencies: [any Bootstrapping.Type] { [PersistenceBootstrapping.self] }
///     private(set) var peeler: BananaPeeler?
///     func bootstrap(_ bootstrapped: Bootstrapped) throws {
///         let persistence = try bootstrapped.component(PersistenceBootstrapping.self)
///         peeler = BananaPeeler(store: persistence.store)
///     }
/// }
/// let app = try Bootstrapped.bootstrap([DomainBootstrapping(), PersistenceBootstrapping()])
/// ```
public protocol Bootstrapping {
    /// Components that must be bootstrapped before this one; used to order a list.
    static var dependencies: [any Bootstrapping.Type] { get }
    /// Sets the component up. Throw to stop the launch.
    func bootstrap(_ bootstrapped: Bootstrapped) throws
}

extension Bootstrapping {
    public static var dependencies: [any Bootstrapping.Type] { [] }
}

/// Why a launch sequence of ``Bootstrapping`` components failed.
public enum BootstrappingError: Error, CustomStringConvertible {
    /// A component asked for another that has not been bootstrapped.
    case expectedComponentNotFound(String)
    /// The components' declared dependencies cannot be ordered.
    case ordering(OrderingError)
    /// A component's ``Bootstrapping/bootstrap(_:)`` threw.
    case componentFailed(String, underlying: any Error)

    public var description: String {
        switch self {
        case .expectedComponentNotFound(let name):
            "\(name) has not been bootstrapped. Bootstrap it earlier, or declare it in `dependencies`."
        case .ordering(let error):
            error.description
        case .componentFailed(let name, let underlying):
            "\(name) failed to bootstrap: \(underlying)"
        }
    }
}
