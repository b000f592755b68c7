/// An immutable collection of components that bootstrapped successfully.
///
/// ``bootstrap(_:)-swift.method`` returns a new, larger collection and leaves this one as
/// it was; ``component(_:)`` finds an earlier component, or throws if it is missing.
public struct Bootstrapped {
    /// The components, in the order they were bootstrapped.
    public let components: [any Bootstrapping]

    /// An empty collection.
    public init() {
        components = []
    }

    private init(components: [any Bootstrapping]) {
        self.components = components
    }

    /// Bootstraps `component` against this collection and returns the collection with it.
    public func bootstrap(_ component: any Bootstrapping) throws(BootstrappingError) -> Bootstrapped {
        do {
            try component.bootstrap(self)
        } catch let error as BootstrappingError {
            throw error
        } catch {
            throw .componentFailed(Self.name(of: type(of: component)), underlying: error)
        }
        return Bootstrapped(components: components + [component])
    }

    /// The bootstrapped component of type `T`.
    public func component<T: Bootstrapping>(_ type: T.Type) throws(BootstrappingError) -> T {
        for case let found as T in components { return found }
        throw .componentNotFound(Self.name(of: type))
    }

    /// Bootstraps `components` in the order their ``Bootstrapping/dependencies`` require.
    public static func bootstrap(_ components: [any Bootstrapping]) throws(BootstrappingError) -> Bootstrapped {
        let ordered: [any Bootstrapping]
        do {
            ordered = try DependencyOrder.sorted(
                components,
                name: { name(of: type(of: $0)) },
                dependencies: { type(of: $0).dependencies.map(name(of:)) }
            )
        } catch {
            throw .ordering(error)
        }
        var result = Bootstrapped()
        for component in ordered { result = try result.bootstrap(component) }
        return result
    }

    static func name(of type: Any.Type) -> String { String(describing: type) }
}
