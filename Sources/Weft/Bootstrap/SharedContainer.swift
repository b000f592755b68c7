import Logging
import WeftPrimitives

/// The state behind ``Container/shared``: the current container, whether a bootstrap
/// completed, and the gate that serializes bootstraps.
///
/// One instance is global; ``Container/withIsolatedShared(_:operation:)`` binds another one
/// to a task so that parallel tests never see each other's registrations.
final class SharedContainer: Sendable {
    struct State {
        var container: Container
        var isBootstrapped = false
        var lastFailure: (any Error)?
    }

    let state: Locked<State>
    let gate = AsyncGate()

    init(_ container: Container = Container()) {
        state = Locked(State(container: container))
    }

    static let global = SharedContainer()
    @TaskLocal static var override: SharedContainer?

    /// The task's isolated shared container, or the global one.
    static var active: SharedContainer { override ?? global }

    var container: Container { state.withLock { $0.container } }
    var isBootstrapped: Bool { state.withLock { $0.isBootstrapped } }

    /// Builds a new container aside with `configure`, then swaps it in. On throw the current
    /// container stays as it was.
    func bootstrap(_ configure: (Container) async throws -> Void) async throws {
        let previous = container
        let fresh = Container()
        fresh.diagnostics = previous.diagnostics
        fresh.startup = previous.startup
        do {
            try await configure(fresh)
        } catch {
            state.withLock { $0.lastFailure = error }
            previous.diagnostics.logger.error("Bootstrap failed; the previous container stays in place: \(error)")
            throw error
        }
        state.withLock { state in
            state.container = fresh
            state.isBootstrapped = true
            state.lastFailure = nil
        }
    }

    /// Stages what `configure` registers on the current container, then applies it in one
    /// step (see ``Staging``).
    func update(_ configure: (Container) async -> Void) async {
        let current = container
        _ = try? await Staging.run(on: current) { await configure(current) }
    }

    func reset() {
        state.withLock { $0 = State(container: Container()) }
    }
}
