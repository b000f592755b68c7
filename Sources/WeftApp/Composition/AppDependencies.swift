public import FactKit
public import Weft

/// Everything the running app needs, assembled by a successful initialization.
public struct AppDependencies: Sendable {
    /// The environments the person can switch between.
    public let catalog: EnvironmentCatalog
    /// The environment this run initialized.
    public let environment: Environment
    /// The container the services were registered in.
    public let container: Container
    /// Fetches facts, and records them when the history is open.
    public let repository: FactRepository
    /// Every fact shown, for the history list; `nil` when it could not be opened (the run is
    /// degraded: see ``historyProblem``).
    public let history: HistoryDatabase?
    /// Why the history is unavailable, when it is: the error of the step that opens it or
    /// records the first fact.
    public let historyProblem: (any Error)?
    /// The fact fetched during initialization.
    public let firstFact: Fact

    /// Shuts the container down: stops the embedded server, if this run started one, and
    /// shuts down the HTTP client, within 5 seconds: a service that does not stop by then is
    /// abandoned, so that `q` and SIGTERM always exit. A failure, and each service abandoned,
    /// is logged; nothing is left to retry.
    public func shutdown() async {
        await container.shutdownLogging()
    }
}
