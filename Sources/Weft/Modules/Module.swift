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
    /// Registers this module's services.
    func configure(_ container: Container) async throws
}

extension Module {
    public var dependencies: [String] { [] }
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
    /// Configures `modules` in dependency order, all or nothing.
    ///
    /// Registrations are made aside and merged in one step once every module succeeded.
    /// - Returns: The module names in the order they were configured.
    /// - Throws: ``OrderingError`` for a cycle, missing or duplicate module;
    ///   ``ModuleConfigurationError`` when a module's configure step throws.
    @discardableResult
    public func install(_ modules: [any Module]) async throws -> [String] {
        let ordered = try DependencyOrder.sorted(modules, name: \.name, dependencies: \.dependencies)
        let aside = Container(parent: self)
        for module in ordered {
            do {
                try await module.configure(aside)
            } catch {
                throw ModuleConfigurationError(module: module.name, underlying: error)
            }
        }
        merge(aside)
        return ordered.map(\.name)
    }
}
