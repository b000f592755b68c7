import FactKit
import Foundation
import Weft
public import WeftInitializer

/// How `weft` initializes: a graph of steps, each starting the moment the steps it needs have
/// finished.
///
/// | id | step | after | |
/// |---|---|---|---|
/// | `settings` | Load settings | | sync, simple |
/// | `environment` | Choose the environment | settings | sync |
/// | `services` | Register services | environment | sync |
/// | `history` | Open the history database | services | optional |
/// | `server` | Start the fact server | services | embedded only |
/// | `client` | Create the HTTP client | services | |
/// | `fact` | Fetch the first cat fact | client, server | 3 attempts |
/// | `record` | Record the fact in the history | fact, history | optional |
/// | `health` | Check service health | server, client | after ready |
///
/// Every step but `settings` is repeatable. The run is ready — `weft` shows the fact — once every
/// step but `health` has ended: the health check runs after ready, off the first screen's path.
/// The fact does not wait for the database: when the
/// history cannot be opened the run is degraded — the fact is shown unrecorded, with a notice —
/// and a repeat run retries it. ``AppProcess/toContainer`` assembles the app from what the
/// steps built. Switching environment re-runs what depends on it (``switching(to:)``):
/// settings and the open database carry over.
public enum AppPlan {
    /// An initializer for a first run with `options`; read its `plan` and subscribe to its
    /// `events()` before starting it. Its runs, and the repeats made from them, fail with
    /// `InitializationDeadlineExceeded` when they take longer than the options'
    /// ``AppOptions/startupDeadline``. The deadline, the steps' timeouts and the retry delays run
    /// on `clock`: the continuous clock, or in a test one the test moves. With the continuous
    /// clock, a step's timeout is stretched by the options' ``AppOptions/stepTimeoutScale``.
    @MainActor
    public static func makeInitializer(
        options: AppOptions, clock: InitializationClock? = nil
    ) throws(InitializationConfigurationError) -> DependencyInitializer<AppProcess> {
        let clock =
            clock
            ?? (options.stepTimeoutScale > 1
                ? InitializationClock(StretchedTimeoutClock(scale: options.stepTimeoutScale)) : .continuous)
        return try DependencyInitializer(
            createProcess: { AppProcess(options: options) }, steps: steps, clock: clock,
            deadline: options.startupDeadline)
    }

    /// The `createProcess` of a repeat run in `environment` (the current one when `nil`
    /// would be ambiguous, so pass the name): shuts down the previous run's container — its
    /// server and HTTP client — and keeps its settings and database.
    public static func switching(to environment: String?) -> @MainActor @Sendable (AppProcess) -> AppProcess {
        { previous in previous.next(environment: environment) }
    }

    /// How the first fact's fetch is retried: three attempts, 200 ms then 400 ms apart.
    static let factRetry = InitializationRetry.exponential(
        attempts: 3, baseDelay: .milliseconds(200), maxDelay: .seconds(2), jitter: 0.2)

    // MARK: - Steps

    static let steps: [InitializationStep<AppProcess>] = [
        .sync("settings", title: "Load settings") { process in
            process.catalog = try process.options.catalog()
        },
        .sync("environment", title: "Choose the environment", type: .repeatable, after: ["settings"]) { process in
            let catalog = try process.require(process.catalog, "the environments catalog")
            process.environment =
                try process.requestedEnvironment.map { name throws(EnvironmentCatalogError) in
                    try catalog.environment(named: name)
                } ?? catalog.defaultEnvironment
        },
        .sync("services", title: "Register services", type: .repeatable, after: ["environment"]) { process in
            process.container = AppServices.makeContainer(
                environment: try process.require(process.environment, "the environment"),
                databaseURL: process.options.resolvedDatabaseURL,
                database: process.database,
                logger: AppLog.logger(level: process.options.logLevel, file: process.options.logFile)
            )
        },
        // Repeatable so that a retry after a failure to open tries again; once open, the
        // database is carried over and registered as an instance, so the step is instant.
        .async(
            "history", title: "Open the history database", type: .repeatable, after: ["services"], optional: true,
            timeout: .seconds(15)
        ) { process in
            try await process.noticingHistoryProblems {
                let (container, _) = try await process.services()
                return try await container.resolveAsync(HistoryDatabase.self)
            }
        } apply: { process, database in
            process.database = database
        },
        .async(
            "server", title: "Start the fact server", type: .repeatable, after: ["services"], timeout: .seconds(15)
        ) { process in
            await process.retireReplacedRun()
            let (container, environment) = try await process.services()
            guard case .embedded = environment.source else { return FactServer?.none }
            return try await container.resolveAsync(FactServer.self)
        } apply: { process, server in
            process.server = server
        },
        .async("client", title: "Create the HTTP client", type: .repeatable, after: ["services"]) { process in
            let (container, _) = try await process.services()
            _ = try await container.resolveAsync(RunHTTPClient.self)
        },
        .async(
            "fact", title: "Fetch the first cat fact", type: .repeatable, after: ["client", "server"],
            timeout: .seconds(90), retry: factRetry
        ) { process in
            let (container, environment) = try await process.services()
            let service = try await container.resolveAsync(FactService.self)
            return try await FactRepository(service: service, history: nil, environment: environment.name).fetchFact()
        } apply: { process, fact in
            process.firstFact = fact
        },
        .async(
            "record", title: "Record the fact in the history", type: .repeatable, after: ["fact", "history"],
            optional: true, timeout: .seconds(15)
        ) { process in
            try await process.noticingHistoryProblems {
                let (container, environment) = try await process.services()
                let fact = try await process.require(process.firstFact, "the first fact")
                let service = try await container.resolveAsync(FactService.self)
                let history = try await process.require(process.database, "the history database")
                return try await FactRepository(service: service, history: history, environment: environment.name)
                    .record(fact)
            }
        } apply: { process, fact in
            process.firstFact = fact
        },
        .async(
            "health", title: "Check service health", type: .repeatable, after: ["server", "client"],
            schedule: .afterReady, timeout: .seconds(20)
        ) {
            process in
            let (container, _) = try await process.services()
            // Health checks never create services: they check the ones this run created.
            let report = await container.checkHealth()
            if case .unhealthy = report.overall { throw UnhealthyServices(report: report) }
            return report
        } apply: { process, report in
            process.health = report
        },
    ]
}

/// A health check found a service not working.
struct UnhealthyServices: Error, Sendable, CustomStringConvertible {
    let report: HealthReport

    var description: String {
        let failing = report.statuses
            .compactMap { key, status in
                if case .unhealthy(let reason) = status { "\(key): \(reason)" } else { nil }
            }
            .sorted()
        return "Unhealthy: " + failing.joined(separator: "; ")
    }
}
