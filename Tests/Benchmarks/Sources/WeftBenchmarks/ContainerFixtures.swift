/// The services every contender builds: empty final classes, so the numbers measure the
/// container, not the service.
final class CachedService: Sendable {}

/// Resolved anew on every call.
final class TransientService: Sendable {}

/// The three dependencies of ``GraphRoot``, transient like the root.
final class GraphDependencyA: Sendable {}
final class GraphDependencyB: Sendable {}
final class GraphDependencyC: Sendable {}

/// The root of the 4-object graph: one service with three resolved dependencies.
final class GraphRoot: Sendable {
    let a: GraphDependencyA
    let b: GraphDependencyB
    let c: GraphDependencyC

    init(a: GraphDependencyA, b: GraphDependencyB, c: GraphDependencyC) {
        self.a = a
        self.b = b
        self.c = c
    }
}

/// The type registered 10,000 times under distinct names.
final class RegisteredService: Sendable {}

/// Weft's async singleton: registered with an `async` factory, resolved with `resolveAsync`.
final class AsyncCachedService: Sendable {}

/// `value`, or a trap naming what a contender failed to resolve: a broken benchmark setup must
/// stop the run rather than time a shortcut.
func required<T>(_ value: T?, _ what: @autoclosure () -> String = "\(T.self)") -> T {
    guard let value else { preconditionFailure("benchmark setup: could not resolve \(what())") }
    return value
}
