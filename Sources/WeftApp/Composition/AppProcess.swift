public import FactKit
import Foundation
public import Weft
public import WeftInitializer

/// The pieces of ``AppDependencies`` as the initialization steps build them.
///
/// Simple steps (loading settings, opening the history database) run only on the first run;
/// `next(environment:)` carries what they built into the process of a repeat run, and
/// hands over the previous run's container so the repeat can shut it down.
@MainActor
public final class AppProcess: DependencyInitializationProcess {
    /// The command-line options.
    let options: AppOptions
    /// The environment this run should initialize; the catalog's default when `nil`.
    public let requestedEnvironment: String?
    /// The container of the run this one replaces, shut down by the first step that makes a
    /// service (before the new server takes a port).
    let retired: Weft.Container?

    /// Loaded by "Load settings".
    public internal(set) var catalog: EnvironmentCatalog?
    /// Chosen by "Choose the environment".
    public internal(set) var environment: Environment?
    /// Filled by "Register services".
    public internal(set) var container: Weft.Container?
    /// The history database an earlier run opened, registered in this run's container as an
    /// instance; `nil` on a first run, where "Open the history database" opens it (``history``).
    var database: HistoryDatabase?
    /// Fetched by "Fetch the first cat fact", and recorded by "Record the fact in the history".
    var firstFact: Fact?
    /// Reported by "Check service health", after ready: `nil` until it has run.
    var health: HealthReport?

    /// A process for the first run.
    init(options: AppOptions) {
        self.options = options
        self.requestedEnvironment = options.environmentName
        self.retired = nil
    }

    private init(carryingOver previous: AppProcess, environment: String?) {
        options = previous.options
        requestedEnvironment = environment
        retired = previous.container
        catalog = previous.catalog
        database = previous.history
    }

    /// The process of a repeat run in `environment`, keeping what simple steps built.
    func next(environment: String?) -> AppProcess {
        AppProcess(carryingOver: self, environment: environment)
    }

    /// Shuts down this run's container and the one it replaces — their servers and HTTP
    /// clients; for a run that failed or was cancelled. Both within one deadline
    /// (`Container.runShutdownDeadline`, 5 s), not one each: a service that never stops cannot
    /// hold `q` past it.
    public func shutdown() async {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: Weft.Container.runShutdownDeadline)
        await container?.shutdownLogging(deadline: clock.now.duration(to: end), clock: clock)
        await retired?.shutdownLogging(deadline: max(.zero, clock.now.duration(to: end)), clock: clock)
    }

    /// Shuts down the container of the run this one replaces; once is enough, later calls
    /// share its outcome.
    func retireReplacedRun() async {
        await retired?.shutdownLogging()
    }

    /// Why the history is unavailable: the error of the step that opens it or records in it.
    var historyProblem: (any Error)?

    /// Keeps why the history database could not be opened (its factory tells).
    nonisolated func noteHistoryProblem(_ error: any Error) async {
        await MainActor.run { historyProblem = error }
    }

    /// The history database, once open: carried over, or made by this run's container.
    var history: HistoryDatabase? {
        if let database { return database }
        // Only one made already: resolving here must not try to open it.
        let key = ServiceKey(HistoryDatabase.self)
        guard let container, container.registrations.contains(where: { $0.key == key && $0.hasCachedInstance })
        else { return nil }
        return try? container.require(HistoryDatabase.self)
    }

    /// Runs `body` for a step of the history, keeping its error as ``historyProblem``.
    nonisolated func noticingHistoryProblems<Value: Sendable>(
        _ body: @Sendable () async throws -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch {
            await MainActor.run { historyProblem = error }
            throw error
        }
    }

    /// The app, assembled from what the steps built. Without a history (its steps are
    /// optional) the app runs degraded.
    public var toContainer: AppDependencies {
        get throws {
            let (container, environment) = try services()
            guard let firstFact else { throw AppProcessError.missing("the first fact") }
            let service = try container.require(FactService.self)
            return AppDependencies(
                catalog: try require(catalog, "the environments catalog"),
                environment: environment,
                container: container,
                repository: FactRepository(service: service, history: history, environment: environment.name),
                history: history,
                historyProblem: historyProblem ?? (history == nil ? HistoryDatabaseError.unavailable : nil),
                firstFact: firstFact
            )
        }
    }

    func require<Value>(_ value: Value?, _ what: String) throws(AppProcessError) -> Value {
        guard let value else { throw AppProcessError.missing(what) }
        return value
    }

    /// The container and environment, for async steps.
    func services() throws(AppProcessError) -> (Weft.Container, Environment) {
        (try require(container, "the service container"), try require(environment, "the environment"))
    }
}

/// A step ran before the step that provides what it needs: a bug in the plan, not in input.
enum AppProcessError: Error, Sendable, CustomStringConvertible {
    case missing(String)

    var description: String {
        switch self {
        case .missing(let what):
            "Initialization reached a step that needs \(what), which an earlier step did not provide."
        }
    }
}
