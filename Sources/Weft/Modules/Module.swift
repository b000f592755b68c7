import WeftPrimitives

/// A feature's registrations, with the modules it needs configured first.
///
/// ```swift
/// struct UserFeature: Module {
///     let name = "UserFeature"
///     let dependencies = ["Core", "Network"]
///     func configure(_ container: Container) async throws {
///         container.register(UserService.self) { resolver in
///             UserServiceImpl(client: try resolver.resolve(HTTPClient.self))
///         }
///     }
/// }
/// try await container.install([UserFeature(), NetworkFeature(), CoreFeature()])
/// ```
public protocol Module: Sendable {
    /// A unique name other modules refer to.
    var name: String { get }
    /// Names of the modules configured before this one.
    var dependencies: [String] { get }
    /// The services this module's factories resolve that other modules register: its contract
    /// with the rest of the app, checked when it is installed and by ``Container/validate()``.
    var requirements: [ServiceKey] { get }
    /// Names of the modules whose registrations this one registers again on purpose (a fake,
    /// a platform's variant): without it, a key registered by two modules is an error.
    var replaces: [String] { get }
    /// Registers this module's services.
    func configure(_ container: Container) async throws
}

extension Module {
    public var dependencies: [String] { [] }
    public var requirements: [ServiceKey] { [] }
    public var replaces: [String] { [] }
}

/// A module's ``Module/configure(_:)`` threw.
public struct ModuleConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The module that failed.
    public let module: String
    /// What it threw.
    public let underlying: any Error

    public var description: String { "Module \(module) failed to configure: \(underlying)" }
}

extension Container {
    /// Configures `modules` in dependency order, all or nothing; modules already installed in
    /// this container are skipped, and satisfy the dependencies of the others.
    ///
    /// Each module configures this container itself, so factories may capture it. Its
    /// registrations take effect together once every module succeeded (see
    /// ``update(_:)``); when one throws, none do.
    /// - Returns: The names of the modules configured by this call, in order.
    /// - Throws: ``OrderingError`` for a cycle, missing or duplicate module;
    ///   ``ModuleConfigurationError`` when a module's configure step throws.
    @discardableResult
    public func install(_ modules: [any Module]) async throws -> [String] {
        var installed = state.withLock { $0.installedModules }
        if let staging = Staging.innermost(for: self) { installed.formUnion(staging.stagedModules) }
        let pending = modules.filter { !installed.contains($0.name) }
        let ordered = try DependencyOrder.sorted(
            pending, name: \.name, dependencies: \.dependencies, satisfied: installed
        )
        guard !ordered.isEmpty else { return [] }
        return try await Staging.run(on: self) {
            for module in ordered {
                do {
                    try await module.configure(self)
                } catch {
                    throw ModuleConfigurationError(module: module.name, underlying: error)
                }
            }
            Staging.innermost(for: self)?.stage(modules: ordered.map(\.name))
            return ordered.map(\.name)
        }
    }
}
