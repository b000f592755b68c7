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
    /// Created once per outermost resolution and shared by everything it resolves, new for the
    /// next (Swinject's and Factory's `.graph`): in a diamond A → B, A → C, B → D, C → D, one
    /// resolve of A makes one D. Also what lets two services that hold each other close the
    /// loop in ``Registered/onCreated(_:)``.
    case graph

    public var description: String { rawValue }

}
