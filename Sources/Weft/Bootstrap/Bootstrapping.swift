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
public struct BootstrappingError: Error, Sendable, CustomStringConvertible {
    /// A kind of bootstrapping failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable { case componentNotFound, ordering, componentFailed }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// A component asked for ``BootstrappingError/component``, which has not been
        /// bootstrapped.
        public static let componentNotFound = Code(.componentNotFound)
        /// The components' declared dependencies cannot be ordered
        /// (``BootstrappingError/orderingError``).
        public static let ordering = Code(.ordering)
        /// The ``Bootstrapping/bootstrap(_:)`` of ``BootstrappingError/component`` threw
        /// ``BootstrappingError/underlyingError``.
        public static let componentFailed = Code(.componentFailed)
    }

    /// What kind of failure this is.
    public let code: Code
    /// The component (its type's name) that is missing or failed; empty for an ordering failure.
    public let component: String
    /// For ``Code/ordering``, why the components could not be ordered.
    public let orderingError: OrderingError?
    /// For ``Code/componentFailed``, what the component threw.
    public let underlyingError: (any Error)?

    private init(
        _ code: Code,
        component: String,
        orderingError: OrderingError? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.component = component
        self.orderingError = orderingError
        self.underlyingError = underlyingError
    }

    /// A component asked for `component`, which has not been bootstrapped.
    public static func componentNotFound(_ component: String) -> BootstrappingError {
        BootstrappingError(.componentNotFound, component: component)
    }

    /// The components cannot be ordered.
    public static func ordering(_ error: OrderingError) -> BootstrappingError {
        BootstrappingError(.ordering, component: "", orderingError: error)
    }

    /// The ``Bootstrapping/bootstrap(_:)`` of `component` threw `underlying`.
    public static func componentFailed(_ component: String, underlying: any Error) -> BootstrappingError {
        BootstrappingError(.componentFailed, component: component, underlyingError: underlying)
    }

    public var description: String {
        switch code {
        case .componentNotFound:
            "\(component) has not been bootstrapped. Bootstrap it earlier, or declare it in `dependencies`."
        case .ordering:
            orderingError?.description ?? "The components cannot be ordered."
        case .componentFailed:
            "\(component) failed to bootstrap: \(underlyingError.map { "\($0)" } ?? "an error")"
        default:
            "Bootstrapping \(component) failed (\(code))."
        }
    }
}
