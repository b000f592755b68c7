// Swift Testing ships with the toolchain on Linux and with Xcode; macOS's Command Line Tools
// alone may lack it, and then only ManualClock is built.
#if canImport(Testing)
    public import Testing
    public import Weft

    /// Validates one module alone, its requirements met by fakes, and fails the current test with
    /// one issue per problem found.
    ///
    /// In a fresh container, it installs `fakes`, then `module`, and validates the container with
    /// `validate()`: the module's own registrations are resolved for real, the fakes stand in for
    /// the rest of the app. It records an issue:
    ///
    /// - for each of the module's `requirements` that no fake registers: `FeedModule requires
    ///   Database: give expectValid a fake module that registers it`;
    /// - for each problem `validate()` finds that concerns a key the module registers (the
    ///   service at fault, or a step of the path to it, or of a cycle), with the problem's
    ///   description; problems of the fakes alone are not the module's;
    /// - for an error installing the fakes or the module, which then is not validated.
    ///
    /// The module's `dependencies` on other modules by name need no fake: a module alone is
    /// judged by its `requirements` and what its factories resolve. A requirement no fake
    /// registers is stood in for by a registration that throws, so the module's other problems
    /// are still found and that one is reported once.
    ///
    /// ```swift
    /// struct FakeStorage: Module {
    ///     let name = "FakeStorage"
    ///     func configure(_ container: Container) async throws {
    ///         container.register(Database.self, lifetime: .singleton) { InMemoryDatabase() }
    ///     }
    /// }
    ///
    /// @Test func theFeedModuleResolves() async {
    ///     await expectValid(module: FeedModule(), fakes: [FakeStorage()])
    /// }
    /// ```
    ///
    /// Registrations marked `.liveOnly()` or given a `.testValue { … }` are validated with their
    /// live factories, as `validate()` does everywhere: it checks the module's own wiring.
    ///
    /// - Parameters:
    ///   - module: The module to validate.
    ///   - fakes: Modules that register what `module` requires, installed before it.
    ///   - sourceLocation: Where the issues are recorded: by default, the call.
    /// - Returns: The report of the container with the fakes and the module, for further checks
    ///   of its problems or its graph; `nil` when installing them threw.
    @discardableResult
    public func expectValid(
        module: some Module,
        fakes: [any Module] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ValidationReport? {
        func record(_ message: String) {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        let container = Container()
        do {
            try await container.install(fakes)
        } catch {
            let names = fakes.map(\.name).joined(separator: ", ")
            record("expectValid(module: \(module.name)) could not install the fakes (\(names)): \(error)")
            return nil
        }
        let provided = Set(container.registrations.map(\.key))
        let missing = module.requirements.filter { !provided.contains($0) }
        let site = RegistrationSite(fileID: sourceLocation.fileID, line: sourceLocation.line)
        for key in missing {
            record("\(module.name) requires \(key): give expectValid a fake module that registers it.")
            container.registerStandIn(for: key, throwing: NoFake(key: key, module: module.name), site: site)
        }
        do {
            try await container.install([Alone(module, installed: Set(fakes.map(\.name)))])
        } catch {
            record("Installing \(module.name) failed: \(error)")
            return nil
        }
        let standIns = Set(missing)
        let own = Set(container.registrations.map(\.key)).subtracting(provided).subtracting(standIns)
        let report = await container.validate()
        for problem in report.problems where concerns(problem, own, standIns) {
            record(problem.description)
        }
        return report
    }

    /// Whether `problem` concerns one of the module's keys (`own`), and not a stand-in for a
    /// requirement no fake registers, already reported.
    private func concerns(_ problem: ValidationProblem, _ own: Set<ServiceKey>, _ standIns: Set<ServiceKey>) -> Bool {
        if standIns.contains(problem.service) { return false }
        if let dependency = problem.dependency, standIns.contains(dependency) { return false }
        let keys = [problem.service] + problem.path + problem.cycle + (problem.dependency.map { [$0] } ?? [])
        return keys.contains(where: own.contains)
    }

    /// What the stand-in for a requirement no fake registers throws.
    private struct NoFake: Error, CustomStringConvertible {
        let key: ServiceKey
        let module: String
        var description: String {
            "\(module) requires \(key): give expectValid a fake module that registers it."
        }
    }

    /// `module`, installed alone: of its dependencies on other modules, only those installed
    /// (the fakes, by name) order it.
    private struct Alone<Wrapped: Module>: Module {
        let module: Wrapped
        let dependencies: [String]

        init(_ module: Wrapped, installed: Set<String>) {
            self.module = module
            self.dependencies = module.dependencies.filter(installed.contains)
        }

        var name: String { module.name }
        var requirements: [ServiceKey] { module.requirements }
        var replaces: [String] { module.replaces }
        func configure(_ container: Container) async throws { try await module.configure(container) }
    }
#endif
