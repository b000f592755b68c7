import WeftPrimitives

extension Container {
    /// A situation that chooses registrations: tests, debug builds, previews, or an
    /// environment the app defines (Factory's `onTest`, `onDebug`, `onPreview`, `onArg`).
    ///
    /// ```swift
    /// extension Container.Context { static let staging: Self = "staging" }
    ///
    /// container.register(API.self, lifetime: .singleton) { LiveAPI() }
    /// container.register(API.self, lifetime: .singleton, when: .test) { MockAPI() }
    /// container.contexts = [.test]          // API resolves to MockAPI from now on
    /// ```
    public struct Context: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The context's name.
        public let name: String

        /// Creates the context called `name`.
        public init(_ name: String) { self.name = name }

        public init(stringLiteral name: String) { self.name = name }

        /// Running tests.
        public static let test: Context = "test"
        /// A debug build.
        public static let debug: Context = "debug"
        /// Rendering previews.
        public static let preview: Context = "preview"

        public var description: String { name }

        /// The contexts a new root container starts with: ``test`` in a process running tests
        /// (XCTest or Swift Testing, told by its arguments and environment, as
        /// swift-dependencies tells them), ``preview`` while Xcode renders previews, none in an
        /// app. A child or scope starts with its parent's instead.
        ///
        /// So every test is a test context, a plain `@Test` included: a `.liveOnly()` service
        /// it resolves without an override refuses, a `.testValue { … }` is made, and a
        /// `register(…, when: .test)` registration is chosen. A test that means to run the live
        /// wiring says so on its container: `container.contexts.remove(.test)`.
        public static let defaults: Set<Context> =
            switch ProcessRole.current {
            case .tests: [.test]
            case .previews: [.preview]
            case .app: []
            }
    }

    /// The contexts this container resolves in: they choose among `register(…, when:)`
    /// registrations, and ``Context/test`` among them makes this a test context, where
    /// `.liveOnly()` registrations refuse and `.testValue { … }` doubles are made
    /// (``isInTestContext``). A root container starts with ``Context/defaults`` (``Context/test``
    /// in a process running tests, none in an app); children and scopes with their parent's.
    ///
    /// Each resolve uses the registration chosen by the contexts active at that moment: the
    /// last one registered for an active context, else the one without a context. Changing the
    /// contexts forgets the values cached for the keys whose choice changed, here and below,
    /// as registering them again would. To keep parallel tests apart, set them on a container
    /// of the test's own, e.g. inside ``withIsolatedShared(_:operation:)``.
    public var contexts: Set<Context> {
        get { state.withLock { $0.contexts } }
        set {
            change { state in
                let testChanged = state.contexts.contains(.test) != newValue.contains(.test)
                state.contexts = newValue
                var changed: [ServiceKey] = []
                for (key, variants) in state.variants {
                    let effective = variants.effective(in: newValue)
                    guard effective !== state.registrations[key] else { continue }
                    state.registrations[key] = effective
                    state.forgetInherited(key)
                    changed.append(key)
                }
                // Test doubles choose when they run: what they made in the old contexts goes.
                if testChanged {
                    for (key, registration) in state.registrations
                    where registration.made.traits.contains(.readsContexts) && !changed.contains(key) {
                        changed.append(key)
                    }
                }
                return .many(changed)
            }
        }
    }
}

/// Every registration a container holds for one key, in layers, and the one place that decides
/// which of them is effective: the last override in force, else the last registration for an
/// active context, else the registration without a context.
///
/// Kept only for keys that have a contextual registration or an override: a key with only a
/// base registration is just its entry in `registrations`.
struct Variants {
    /// The registration without a context, if any.
    var base: Registration?
    /// Registrations for contexts, in registration order.
    var contextual: [(context: Container.Context, registration: Registration)] = []
    /// Overrides in force, oldest first.
    var overrides: [Registration] = []

    /// The registration a container with `contexts` resolves the key with.
    func effective(in contexts: Set<Container.Context>) -> Registration? {
        overrides.last ?? contextual.last { contexts.contains($0.context) }?.registration ?? base
    }

    /// Whether the base alone is left, so that `registrations` says all.
    var isBaseOnly: Bool { contextual.isEmpty && overrides.isEmpty }
}

extension Container.State {
    /// Registers `registration`, for `context` if given. A registration without a context
    /// replaces the base and ends the overrides in force (registering again wins); one for a
    /// context is added beneath them.
    /// - Returns: Whether the registration this container resolves the key with changed.
    mutating func put(_ registration: Registration, context: Container.Context?, module: String? = nil) -> Bool {
        let key = registration.key
        // Skipped while no key has a context registration: a hash and probe per registration.
        guard context != nil || (!variants.isEmpty && variants[key] != nil) else {
            if let earlier = registrations.updateValue(registration, forKey: key), earlier !== registration {
                noteReplaced(earlier, by: registration, module: module)
            }
            forgetInherited(key)
            return true
        }
        if context == nil, let entry = variants[key], entry.contextual.isEmpty, let earlier = entry.base,
            earlier !== registration
        {
            noteReplaced(earlier, by: registration, module: module)
        } else if context == nil {
            replaced[key] = nil
        }
        return changeVariants(of: key) { entry in
            if let context {
                entry.contextual.append((context, registration))
            } else {
                entry.base = registration
                entry.overrides = []
            }
        }
    }

    /// Puts `registration` over every other registration of its key until it is restored.
    mutating func putOverride(_ registration: Registration) -> Bool {
        changeVariants(of: registration.key) { $0.overrides.append(registration) }
    }

    /// Ends the override `registration`, in whatever order overrides end; `false` (nothing
    /// changes) if it already ended: restored, or the key was registered again or removed.
    mutating func restoreOverride(_ registration: Registration) -> Bool {
        guard let entry = variants[registration.key], entry.overrides.contains(where: { $0 === registration }) else {
            return false
        }
        return changeVariants(of: registration.key) { entry in entry.overrides.removeAll { $0 === registration } }
    }

    /// Changes the layers of `key` with `update` and makes the effective registration current.
    /// - Returns: Whether the effective registration changed.
    private mutating func changeVariants(of key: ServiceKey, _ update: (inout Variants) -> Void) -> Bool {
        var entry = variants[key] ?? Variants(base: registrations[key])
        update(&entry)
        variants[key] = entry.isBaseOnly ? nil : entry
        let effective = entry.effective(in: contexts)
        guard effective !== registrations[key] else { return false }
        registrations[key] = effective
        forgetInherited(key)
        return true
    }

    /// Forgets the ancestor's registration remembered for `key`, whenever this container's own
    /// registration of `key` changes: while one hides it, a remembered one is never kept up to
    /// date, so it must not outlive the hiding registration.
    mutating func forgetInherited(_ key: ServiceKey) {
        if !inherited.isEmpty { inherited[key] = nil }
    }

    /// Puts `new` wherever `old` is registered.
    /// - Returns: Whether the registration this container resolves the key with changed.
    mutating func replace(_ old: Registration, with new: Registration) -> Bool {
        let key = old.key
        // A registration changed by a modifier (`.testValue`, a decorator) is the same one.
        if let noted = replaced[key], noted.later === old {
            replaced[key] = Replaced(earlierSite: noted.earlierSite, earlierModule: noted.earlierModule, later: new)
        }
        if var entry = variants[key] {
            if entry.base === old { entry.base = new }
            for index in entry.contextual.indices where entry.contextual[index].registration === old {
                entry.contextual[index].registration = new
            }
            for index in entry.overrides.indices where entry.overrides[index] === old { entry.overrides[index] = new }
            variants[key] = entry
        }
        guard registrations[key] === old else { return false }
        registrations[key] = new
        return true
    }
}

/// A key registered again in one container, replacing that container's own registration
/// (``Container/State/replaced``).
struct Replaced: Sendable {
    let earlierSite: RegistrationSite?
    /// The module that made the earlier registration; `nil` outside modules.
    let earlierModule: String?
    let later: Registration
}

extension Container.State {
    /// Notes that `later`, made by `module` (`nil` outside modules), replaced `earlier`, this
    /// container's own registration of the key without a context: made twice if from the same
    /// place (the key's provenance is still the earlier registration's here, which a key with
    /// context registrations does not promise: those are not noted), else not.
    mutating func noteReplaced(_ earlier: Registration, by later: Registration, module: String?) {
        let earlierModule = provenance[later.key]?.module
        replaced[later.key] =
            earlierModule == module
            ? Replaced(earlierSite: earlier.site, earlierModule: earlierModule, later: later) : nil
    }

    /// The keys registered twice from one place (outside modules, or one module) whose later
    /// registration is still their registration without a context, whatever override or
    /// context is in force: ``Container/validate()``'s warnings.
    var registeredTwice: [ValidationProblem] {
        replaced.compactMap { key, replaced in
            guard (variants[key].map { $0.base } ?? registrations[key]) === replaced.later else { return nil }
            return ValidationProblem.registeredTwice(
                key, earlier: replaced.earlierSite, later: replaced.later.site,
                module: replaced.earlierModule == nil ? nil : provenance[key]?.label)
        }
        .sorted { $0.service.description < $1.service.description }
    }
}
