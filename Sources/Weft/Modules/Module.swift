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
    ///
    /// ``Container/install(_:)`` throws ``ModuleError`` (``ModuleError/Code/unmetRequirement``)
    /// when one is registered neither in the container, an ancestor, nor by the install;
    /// ``Container/validate()`` reports one that is no longer registered
    /// (``ValidationProblem/Code/unmetRequirement``).
    ///
    /// ```swift
    /// var requirements: [ServiceKey] { [ServiceKey(Database.self)] }
    /// ```
    var requirements: [ServiceKey] { get }
    /// Names of the modules whose registrations this one registers again on purpose (a fake,
    /// a platform's variant): without it, a key registered by two modules is an error
    /// (``ModuleError/Code/duplicateRegistration``). A module is configured after the modules
    /// it replaces that are in the same install, so that its registrations win.
    var replaces: [String] { get }
    /// Registers this module's services.
    func configure(_ container: Container) async throws
}

extension Module {
    public var dependencies: [String] { [] }
    public var requirements: [ServiceKey] { [] }
    public var replaces: [String] { [] }
}

extension Container {
    /// Configures `modules` in dependency order, all or nothing; modules already installed in
    /// this container are skipped, and satisfy the dependencies of the others.
    ///
    /// Each module configures this container itself, so factories may capture it. Its
    /// registrations take effect together once every module succeeded (see
    /// ``update(_:)``); when one throws, none do. A module is configured after the modules it
    /// lists in ``Module/dependencies``, and after those in its ``Module/replaces`` that are in
    /// the list.
    ///
    /// Once every module configured, the install is checked, and nothing is applied if it fails:
    /// - Each key a module registers that a different module registered before (in this
    ///   install, or installed earlier in this container) is a
    ///   ``ModuleError/Code/duplicateRegistration``, unless the later module lists the earlier
    ///   in ``Module/replaces``. One module registering a key twice, and `register` outside
    ///   modules, replace the earlier registration as ever. Checked first, in registration
    ///   order.
    /// - Each of a configured module's ``Module/requirements`` must be registered in this
    ///   container, an ancestor, or by this install: else ``ModuleError/Code/unmetRequirement``.
    ///   Checked next, in configuration order.
    ///
    /// The container records which module registered each key (and where): ``validate()``
    /// names it, and ``DependencyGraph/modules`` groups services by it.
    ///
    /// - Returns: The names of the modules configured by this call, in order.
    /// - Throws: ``ModuleError``, whose ``ModuleError/code`` says why:
    ///   ``ModuleError/Code/ordering`` for a cycle, missing or duplicate module,
    ///   ``ModuleError/Code/configurationFailed`` when a module's configure step throws,
    ///   ``ModuleError/Code/unmetRequirement`` and ``ModuleError/Code/duplicateRegistration``.
    @discardableResult
    public func install(_ modules: [any Module]) async throws -> [String] {
        var installed = state.withLock { $0.installedModules }
        if let staging = Staging.innermost(for: self) { installed.formUnion(staging.stagedModules) }
        let pending = modules.filter { !installed.contains($0.name) }
        let names = Set(pending.map(\.name))
        let ordered: [any Module]
        do {
            ordered = try DependencyOrder.sorted(
                pending, name: \.name,
                dependencies: { module in
                    module.dependencies + module.replaces.filter { $0 != module.name && names.contains($0) }
                },
                satisfied: installed
            )
        } catch {
            throw ModuleError.ordering(error)
        }
        guard !ordered.isEmpty else { return [] }
        return try await Staging.run(on: self) {
            for module in ordered {
                let configuring = ConfiguringModule(
                    container: ObjectIdentifier(self), name: module.name, label: module.label)
                do {
                    try await ConfiguringModule.$current.withValue(configuring) { try await module.configure(self) }
                } catch {
                    throw ModuleError.configurationFailed(module: module.label, underlying: error)
                }
            }
            let configured = ordered.map(InstalledModule.init)
            if let staging = Staging.innermost(for: self) {
                try check(configured, staging: staging)
                staging.stage(modules: configured)
            }
            return ordered.map(\.name)
        }
    }

    /// Checks an install's staged registrations for keys two modules register, and its
    /// modules' requirements (see ``install(_:)``).
    private func check(_ configured: [InstalledModule], staging: Staging) throws(ModuleError) {
        // Modules of installs nested in this one are staged here already.
        var replaces: [String: [String]] = [:]
        for module in staging.modules + configured { replaces[module.name] = module.replaces }
        let (provenance, contexts) = state.withLock { ($0.provenance, $0.contexts) }
        var owners = provenance
        let entries = staging.entries
        for entry in entries {
            let key = entry.registration.key
            guard let module = entry.module else {
                owners[key] = nil
                continue
            }
            if let earlier = owners[key], earlier.module != module.module,
                !(replaces[module.module] ?? []).contains(earlier.module)
            {
                throw .duplicateRegistration(
                    key, module: module.label, site: module.site, earlierModule: earlier.label,
                    earlierSite: earlier.site)
            }
            owners[key] = module
        }
        // A registration for a context that is not active does not meet a requirement.
        var staged = Set(
            entries.lazy.filter { $0.context.map { contexts.contains($0) } ?? true }.map(\.registration.key))
        if let outer = staging.parent.flatMap({ Staging.innermost(in: $0, for: self) }) {
            staged.formUnion(outer.stagedKeys)
        }
        for module in configured {
            let unmet = module.requirements.filter { !staged.contains($0) && registration(for: $0) == nil }
            if let first = unmet.first {
                throw .unmetRequirement(module: module.label, requirement: first, others: Array(unmet.dropFirst()))
            }
        }
    }
}
