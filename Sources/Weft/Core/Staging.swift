import WeftPrimitives

/// Registrations made inside ``Container/update(_:)`` or ``Container/install(_:)``, applied to
/// their container in one step when the configuring closure returns.
///
/// The closure is handed the live container, so a factory that captures it resolves into the
/// container that serves every resolve: there is no second container to keep consistent.
/// Only the configuring task (and the tasks it creates) stages: its registrations become
/// visible together, to it too, when the closure returns. Until then every resolve sees the
/// container as it was, and values created meanwhile are the container's own.
final class Staging: Sendable {
    /// A staged registration, with its value for an `instance:` or `owning:` registration.
    struct Entry: Sendable {
        let registration: Registration
        let instance: (any Sendable)?
        let context: Container.Context?
        /// Whether the container owns `instance` (`owning:`): it disposes it at shutdown.
        var owned = false
        /// The module whose ``Module/configure(_:)`` made it, if any (set by ``stage(_:)``).
        var module: Provenance? = nil
    }

    /// The staging of the current task, innermost first through ``parent``.
    @TaskLocal static var current: Staging?

    let container: Container
    let parent: Staging?
    private let state = Locked(State())

    private struct State {
        var entries: [Entry] = []
        var modules: [InstalledModule] = []
        var isOpen = true
    }

    private init(container: Container, parent: Staging?) {
        self.container = container
        self.parent = parent
    }

    /// The current task's innermost open staging for `container`, if any.
    static func innermost(for container: Container) -> Staging? {
        var staging = current
        while let candidate = staging {
            if candidate.container === container { return candidate }
            staging = candidate.parent
        }
        return nil
    }

    /// Stages `entry`; `false` once the staging was applied or discarded (a task that
    /// outlived its closure registers directly).
    /// An entry made while a module configures this container is recorded as that module's.
    func stage(_ entry: Entry) -> Bool {
        var entry = entry
        if entry.module == nil, let module = ConfiguringModule.of(container) {
            entry.module = Provenance(module: module.name, label: module.label, site: entry.registration.site)
        }
        return state.withLock { state in
            guard state.isOpen else { return false }
            state.entries.append(entry)
            return true
        }
    }

    /// What is staged here so far, in order.
    var entries: [Entry] { state.withLock { $0.entries } }

    /// The keys staged here or in an enclosing staging of the same container.
    var stagedKeys: Set<ServiceKey> {
        var keys = Set(entries.map(\.registration.key))
        if let outer = parent.flatMap({ Staging.innermost(in: $0, for: container) }) {
            keys.formUnion(outer.stagedKeys)
        }
        return keys
    }

    /// The modules staged here by installs nested in this one.
    var modules: [InstalledModule] { state.withLock { $0.modules } }

    /// Puts `new` in place of the staged `old`; `false` if `old` is not staged here.
    func replace(_ old: Registration, with new: Registration) -> Bool {
        state.withLock { state in
            guard state.isOpen, let index = state.entries.lastIndex(where: { $0.registration === old }) else {
                return false
            }
            let old = state.entries[index]
            state.entries[index] = Entry(
                registration: new, instance: old.instance, context: old.context, owned: old.owned,
                module: old.module)
            return true
        }
    }

    /// Records that `modules` are configured once this staging is applied.
    func stage(modules: some Sequence<InstalledModule>) {
        state.withLock { $0.modules.append(contentsOf: modules) }
    }

    /// Module names configured here or in an enclosing staging of the same container.
    var stagedModules: Set<String> {
        var names = Set(state.withLock { $0.modules }.map(\.name))
        if let outer = parent.flatMap({ Staging.innermost(in: $0, for: container) }) {
            names.formUnion(outer.stagedModules)
        }
        return names
    }

    static func innermost(in staging: Staging, for container: Container) -> Staging? {
        var candidate: Staging? = staging
        while let current = candidate {
            if current.container === container { return current }
            candidate = current.parent
        }
        return nil
    }

    /// Runs `body` with registrations on `container` by this task staged, then applies them
    /// in one step, or hands them to an enclosing staging of the same container. When `body`
    /// throws, nothing it staged is applied.
    static func run<R>(on container: Container, _ body: () async throws -> R) async throws -> R {
        let staging = Staging(container: container, parent: current)
        container.state.withLock { $0.openStagings += 1 }
        let result: Result<R, any Error>
        do {
            result = .success(try await $current.withValue(staging) { try await body() })
        } catch {
            result = .failure(error)
        }
        let (entries, modules) = staging.state.withLock { state in
            state.isOpen = false
            return (state.entries, state.modules)
        }
        if case .success = result {
            if let outer = staging.parent.flatMap({ innermost(in: $0, for: container) }) {
                for entry in entries where !outer.stage(entry) { container.apply([entry], modules: []) }
                outer.stage(modules: modules)
            } else {
                container.apply(entries, modules: modules)
            }
        }
        container.state.withLock { $0.openStagings -= 1 }
        return try result.get()
    }
}
