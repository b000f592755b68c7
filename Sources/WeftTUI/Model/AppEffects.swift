import FactKit
import WeftApp
import WeftInitializer
import WeftTerminal

/// The side effects ``AppModel`` asks for: making the first initializer, running an
/// initializer, and fetching a fact.
///
/// ``live`` uses the real plan and repository. Tests keep the real work and wrap it, for
/// example to count runs in flight; the model itself never starts work any other way.
struct AppEffects: Sendable {
    /// Makes the initializer of the first run (``AppPlan/makeInitializer(options:clock:)``).
    var makeInitializer: @MainActor @Sendable (AppOptions) throws -> DependencyInitializer<AppProcess>
    /// Runs an initializer to its end; throws its `InitializationFailure`.
    var run: @MainActor @Sendable (DependencyInitializer<AppProcess>) async throws -> InitializationResult<AppProcess>
    /// Fetches the next fact through the repository (no re-initialization).
    var fetchNextFact: @Sendable (FactRepository) async throws -> Fact
    /// Reads the history for the history list, most recent first.
    var loadHistory: @Sendable (HistoryDatabase) async throws -> [HistoryEntry]
    /// Puts text on the clipboard (the terminal's OSC 52); a no-op unless given.
    var copyToClipboard: @MainActor @Sendable (String) -> Void

    /// Creates a set of effects.
    init(
        makeInitializer: @escaping @MainActor @Sendable (AppOptions) throws -> DependencyInitializer<AppProcess>,
        run:
            @escaping @MainActor @Sendable (DependencyInitializer<AppProcess>) async throws -> InitializationResult<
                AppProcess
            >,
        fetchNextFact: @escaping @Sendable (FactRepository) async throws -> Fact,
        loadHistory: @escaping @Sendable (HistoryDatabase) async throws -> [HistoryEntry] = AppEffects.readHistory,
        copyToClipboard: @escaping @MainActor @Sendable (String) -> Void = { _ in }
    ) {
        self.makeInitializer = makeInitializer
        self.run = run
        self.fetchNextFact = fetchNextFact
        self.loadHistory = loadHistory
        self.copyToClipboard = copyToClipboard
    }

    /// The most recent 1,000 facts of the history.
    static let readHistory: @Sendable (HistoryDatabase) async throws -> [HistoryEntry] = { history in
        try await history.entries(limit: 1_000)
    }

    /// These effects, copying to `terminal`'s clipboard.
    func copying(to terminal: any Terminal) -> AppEffects {
        var effects = self
        effects.copyToClipboard = { text in terminal.copyToClipboard(text) }
        return effects
    }

    /// The real plan, the real initializer run and the real repository.
    static let live = AppEffects(
        makeInitializer: { options in try AppPlan.makeInitializer(options: options) },
        run: { initializer in try await initializer.run() },
        fetchNextFact: { repository in try await repository.nextFact() }
    )
}
