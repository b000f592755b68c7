/// Why ``Container/install(_:)`` refused a set of modules, or `replacing(_:with:)` a fake: the
/// one error to catch around both. Its ``code`` says which: the modules cannot be ordered, one
/// failed to configure, a declared requirement nobody registers, a key two modules register,
/// or a fake for a module that is not in the list. Nothing of such an install is applied.
///
/// ```swift
/// do {
///     try await container.install([FeedModule()])
/// } catch let error as ModuleError where error.code == .unmetRequirement {
///     print(error)  // Module Feed requires Database, which no installed module registers. …
/// }
/// ```
public struct ModuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of module failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case ordering, configurationFailed, unmetRequirement, duplicateRegistration, unknownModule
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        public var description: String { kind.rawValue }

        /// The modules cannot be ordered by their ``Module/dependencies``: a cycle, a dependency
        /// on a module not in the list, or two modules of one name
        /// (``ModuleError/orderingError`` says which).
        public static let ordering = Code(.ordering)
        /// The ``Module/configure(_:)`` of ``ModuleError/module`` threw
        /// ``ModuleError/underlyingError``.
        public static let configurationFailed = Code(.configurationFailed)
        /// ``ModuleError/module`` declares ``ModuleError/key`` in its ``Module/requirements``,
        /// and neither the container, its ancestors nor the install register it.
        public static let unmetRequirement = Code(.unmetRequirement)
        /// ``ModuleError/module`` registers ``ModuleError/key``, which
        /// ``ModuleError/earlierModule`` registered before it, and does not list that module in
        /// its ``Module/replaces``.
        public static let duplicateRegistration = Code(.duplicateRegistration)
        /// `replacing(_:with:)` named ``ModuleError/module``, which is not in the list of modules.
        public static let unknownModule = Code(.unknownModule)
    }

    /// What kind of failure this is.
    public let code: Code
    /// The module at fault, as messages name it: its ``Module/name``, or for a fake installed
    /// with `replacing(_:with:)`, `FakeNetwork (in place of Network)`. For
    /// ``Code/unknownModule``, the name (or type name) that was not found; for ``Code/ordering``,
    /// the module that depends on a missing one, closes the cycle, or shares its name.
    public let module: String
    /// The requirement that is not met, or the key registered twice; `nil` for
    /// ``Code/unknownModule``.
    public let key: ServiceKey?
    /// For ``Code/duplicateRegistration``, the module that registered ``key`` first.
    public let earlierModule: String?
    /// For ``Code/duplicateRegistration``, where ``module`` registers ``key``. Two errors that
    /// differ only in their sites are equal.
    public let site: RegistrationSite?
    /// For ``Code/duplicateRegistration``, where ``earlierModule`` registered ``key``.
    public let earlierSite: RegistrationSite?
    /// For ``Code/ordering``, why the modules could not be ordered: a cycle, a missing or a
    /// duplicate module.
    public let orderingError: OrderingError?
    /// For ``Code/configurationFailed``, what the module's ``Module/configure(_:)`` threw. Two
    /// errors that differ only in it are equal.
    public let underlyingError: (any Error)?
    /// For ``Code/unmetRequirement``, every requirement of ``module`` that is not met, in the
    /// order declared: ``key`` and the others, so that one install names all that is missing.
    /// Two errors that differ only in the others are equal.
    public let unmetRequirements: [ServiceKey]

    private init(
        _ code: Code, module: String, key: ServiceKey? = nil, earlierModule: String? = nil,
        site: RegistrationSite? = nil, earlierSite: RegistrationSite? = nil, orderingError: OrderingError? = nil,
        underlyingError: (any Error)? = nil, unmetRequirements: [ServiceKey] = []
    ) {
        self.code = code
        self.module = module
        self.key = key
        self.earlierModule = earlierModule
        self.site = site
        self.earlierSite = earlierSite
        self.orderingError = orderingError
        self.underlyingError = underlyingError
        self.unmetRequirements = unmetRequirements
    }

    /// The modules cannot be ordered, for the reason `error` gives.
    public static func ordering(_ error: OrderingError) -> ModuleError {
        ModuleError(.ordering, module: error.requiredBy ?? error.name, orderingError: error)
    }

    /// The ``Module/configure(_:)`` of `module` threw `underlying`.
    public static func configurationFailed(module: String, underlying: any Error) -> ModuleError {
        ModuleError(.configurationFailed, module: module, underlyingError: underlying)
    }

    /// `module` requires `requirement`, which nothing registers, and the `others` after it.
    public static func unmetRequirement(
        module: String, requirement: ServiceKey, others: [ServiceKey] = []
    ) -> ModuleError {
        ModuleError(.unmetRequirement, module: module, key: requirement, unmetRequirements: [requirement] + others)
    }

    /// `module` registers `key` (at `site`), which `earlierModule` registered before (at
    /// `earlierSite`).
    public static func duplicateRegistration(
        _ key: ServiceKey, module: String, site: RegistrationSite? = nil, earlierModule: String,
        earlierSite: RegistrationSite? = nil
    ) -> ModuleError {
        ModuleError(
            .duplicateRegistration, module: module, key: key, earlierModule: earlierModule, site: site,
            earlierSite: earlierSite)
    }

    /// `replacing(_:with:)` named `module`, which is not in the list.
    public static func unknownModule(_ module: String) -> ModuleError {
        ModuleError(.unknownModule, module: module)
    }

    public static func == (lhs: ModuleError, rhs: ModuleError) -> Bool {
        lhs.code == rhs.code && lhs.module == rhs.module && lhs.key == rhs.key && lhs.earlierModule == rhs.earlierModule
            && lhs.orderingError == rhs.orderingError
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(module)
        hasher.combine(key)
        hasher.combine(earlierModule)
        hasher.combine(orderingError)
    }

    public var description: String {
        let key = self.key.map(\.description) ?? "?"
        switch code {
        case .ordering:
            return orderingError?.description ?? "The modules cannot be ordered."
        case .configurationFailed:
            return "Module \(module) failed to configure: \(underlyingError.map { "\($0)" } ?? "an error")"
        case .unmetRequirement:
            let missing = unmetRequirements.isEmpty ? [key] : unmetRequirements.map(\.description)
            let list =
                missing.count == 1 ? key : missing.dropLast().joined(separator: ", ") + " and " + (missing.last ?? key)
            return "Module \(module) requires \(list), which no installed module registers. "
                + "Install a module that registers \(missing.count == 1 ? key : "each") (or a fake of it), "
                + "or drop the requirement."
        case .duplicateRegistration:
            let earlier = earlierModule ?? "another module"
            let at = site.map { " at \($0)" } ?? ""
            let earlierAt = earlierSite.map { " at \($0)" } ?? ""
            return "Modules \(earlier) and \(module) both register \(key) (\(earlier)\(earlierAt), \(module)\(at)). "
                + "Keep one registration, or list \(earlier) in the `replaces` of \(module) to replace it on purpose."
        default:
            return "No module named \(module) to replace: it is not in the list of modules. "
                + "Add it, or fix the name given to `replacing(_:with:)`."
        }
    }
}

/// Which module registered a key, with where: kept by the container beside its registrations
/// (`Container.State.provenance`), never read by a resolve.
struct Provenance: Sendable, Hashable {
    /// The name the module is installed under, which ``Module/replaces`` refers to.
    let module: String
    /// The module as messages name it (``Module/label``).
    let label: String
    let site: RegistrationSite?
}

/// A module that an install configured: what ``Container/validate()`` checks again later.
struct InstalledModule: Sendable {
    let name: String
    let label: String
    let requirements: [ServiceKey]
    let replaces: [String]

    init(_ module: any Module) {
        (name, label, requirements, replaces) = (module.name, module.label, module.requirements, module.replaces)
    }
}

/// The module whose ``Module/configure(_:)`` runs in the current task, and the container it
/// configures: registrations staged there are recorded as that module's.
struct ConfiguringModule: Sendable {
    let container: ObjectIdentifier
    let name: String
    let label: String

    @TaskLocal static var current: ConfiguringModule?

    /// The module configuring `container` in this task, if any.
    static func of(_ container: Container) -> ConfiguringModule? {
        guard let current, current.container == ObjectIdentifier(container) else { return nil }
        return current
    }
}

/// A fake installed in place of a module (`replacing(_:with:)`): it
/// configures, depends and requires as the fake does, under the original's name.
struct ModuleReplacement: Module {
    let original: String
    let fake: any Module

    var name: String { original }
    var dependencies: [String] { fake.dependencies }
    var requirements: [ServiceKey] { fake.requirements }
    var replaces: [String] { fake.replaces }
    func configure(_ container: Container) async throws { try await fake.configure(container) }
}

extension Module {
    /// How messages name the module: its name, or `FakeNetwork (in place of Network)` for a
    /// fake installed in another's place.
    var label: String {
        if let replacement = self as? ModuleReplacement {
            return "\(replacement.fake.label) (in place of \(replacement.original))"
        }
        return name
    }
}

extension Array where Element == any Module {
    /// This list with `fake` in place of the module named `name`: the fake is installed under
    /// that name, so the other modules' ``Module/dependencies`` on it still hold, while its own
    /// ``Module/dependencies``, ``Module/requirements`` and ``Module/replaces`` are what
    /// ``Container/install(_:)`` orders and checks. Messages name it
    /// `FakeNetwork (in place of Network)`.
    ///
    /// ```swift
    /// try await container.install(try AppModules.all.replacing("Network", with: FakeNetwork()))
    /// ```
    ///
    /// - Throws: ``ModuleError`` with ``ModuleError/Code/unknownModule`` when no module is named
    ///   `name`: a misspelt name does not install the real module silently.
    public func replacing(_ name: String, with fake: any Module) throws(ModuleError) -> [any Module] {
        guard let index = firstIndex(where: { $0.name == name }) else { throw .unknownModule(name) }
        var modules = self
        modules[index] = ModuleReplacement(original: name, fake: fake)
        return modules
    }

    /// This list with `fake` in place of the module of type `M` (the first, if several): see
    /// `replacing(_:with:)`.
    ///
    /// ```swift
    /// try await container.install(try AppModules.all.replacing(NetworkModule.self, with: FakeNetwork()))
    /// ```
    ///
    /// - Throws: ``ModuleError`` with ``ModuleError/Code/unknownModule``, naming the type, when
    ///   no module is of type `M`.
    public func replacing<M: Module>(_ type: M.Type, with fake: any Module) throws(ModuleError) -> [any Module] {
        guard let index = firstIndex(where: { ObjectIdentifier(Swift.type(of: $0)) == ObjectIdentifier(type) }) else {
            throw .unknownModule(String(describing: type))
        }
        var modules = self
        modules[index] = ModuleReplacement(original: self[index].name, fake: fake)
        return modules
    }
}
