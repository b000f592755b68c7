import FactKit
import WeftInitializer
import WeftApp
import WeftTerminal

/// The side effects ``AppModel`` asks for: making the first initializer, running an
/// initializer, and fetching a fact.
///
/// ``live`` uses the real plan and repository. Tests keep the real work and wrap it, for
/// example to count runs in flight; the model itself never starts work any other way.
struct AppEffects: Sendable {
    /// Makes the initializer of the first run (``AppPlan/makeInitializer(options:)``).
    var makeInitializer: @MainActor @Sendable (AppOptions) throws -> DependencyInitializer<AppProcess>
    /// Runs an initializer to its end; throws its `InitializationFailure`.
    var run: @MainActor @Sendable (DependencyInitializer<AppProcess>) async throws -> InitializationResult<AppProcess>
    /// Fetches the next fact through the repository (no re-initialization).
    var fetchNextFact: @Sendable (FactRepository) async throws -> Fact

    /// Creates a set of effects.
    init(
        makeInitializer: @escaping @MainActor @Sendable (AppOptions) throws -> DependencyInitializer<AppProcess>,
        run: @escaping @MainActor @Sendable (DependencyInitializer<AppProcess>) async throws -> InitializationResult<AppProcess>,
        fetchNextFact: @escaping @Sendable (FactRepository) async throws -> Fact
    ) {
        self.makeInitializer = makeInitializer
        self.run = run
        self.fetchNextFact = fetchNextFact
    }

    /// The real plan, the real initializer run and the real repository.
    static let live = AppEffects(
        makeInitializer: { options in try AppPlan.makeInitializer(options: options) },
        run: { initializer in try await initializer.run() },
        fetchNextFact: { repository in try await repository.nextFact() }
    )
}
