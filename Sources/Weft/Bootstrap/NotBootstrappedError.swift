/// Why ``Container/ensureBootstrapped()`` found no usable shared container.
public struct NotBootstrappedError: Error, Sendable, CustomStringConvertible {
    /// The last failed bootstrap attempt, if there was one.
    public let lastFailure: (any Error)?

    public var description: String {
        var text = "Container.shared has not been bootstrapped."
        if let lastFailure { text += " The last bootstrap attempt failed: \(lastFailure)." }
        return text + " Call `await Container.bootstrap { container in … }` at launch, before resolving."
    }
}
