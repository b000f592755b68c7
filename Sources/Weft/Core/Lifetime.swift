/// How long a resolved service lives and who shares it.
public enum Lifetime: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A new value on every resolve; never cached.
    case transient
    /// Created lazily on the first resolve, exactly once, then shared by everyone.
    case singleton
    /// Created once per scope from ``Container/createScope()`` and shared within it.
    case scoped
    /// Shared while someone holds a strong reference; created again once released.
    ///
    /// Applies to class instances. A value type cannot be held weakly and behaves as
    /// ``transient``.
    case weak

    public var description: String { rawValue }

    /// Whether the container keeps the value after creating it.
    var isCached: Bool { self != .transient }
}
