import FactKit
import WeftApp
import WeftInitializer
import WeftTerminal

/// The main screen's state: the initialized app, the fact shown and the fetch in flight.
struct MainState: Sendable {
    /// The successful run (its container is the app's dependencies).
    var result: InitializationResult<AppProcess>
    /// The run's report: up to ready, then, once the steps after ready ended, the whole run's.
    var report: InitializationReport
    /// The fact shown.
    var fact: Fact
    /// Whether a next fact is being fetched.
    var isFetching = false
    /// The last fetch error, in a sentence, or `nil`.
    var notice: String?

    /// Creates the state right after a successful run.
    @MainActor
    init(result: InitializationResult<AppProcess>) {
        self.result = result
        self.report = result.report
        self.fact = result.container.firstFact
    }

    /// The running app.
    @MainActor var dependencies: AppDependencies { result.container }
}
