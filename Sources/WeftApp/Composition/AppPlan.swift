import FactKit
import Foundation
import Weft
public import WeftInitializer
import WeftStartup

/// How `weft` initializes: a graph of steps, each starting the moment the steps it needs have
/// finished. The steps that make the container's services are planned from its declared graph
/// (`servicePlan`); the rest, which the container cannot know, are written here.
///
/// | id | step | after | |
/// |---|---|---|---|
/// | `settings` | Load settings | | sync, simple |
/// | `environment` | Choose the environment | settings | sync |
/// | `services` | Register services | environment | sync |
/// | `history` | Open the history database | services | planned, optional |
/// | `server` | Start the fact server | services | planned, embedded only |
/// | `client` | Create the HTTP client | services | planned |
/// | `service` | Connect the fact service | server, client | planned |
/// | `fact` | Fetch the first cat fact | service | 3 attempts |
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

    /// What the first screen needs from the container: the fact service, the history the fact
    /// is recorded in, and the HTTP client, named although the fact service needs it anyway: its
    /// factory is synchronous, and without a step of its own it would be made inside the fact
    /// service's. The rest of the container is made on demand.
    static let startup = StartupDeclaration(
        firstScreen: [ServiceKey(FactService.self), ServiceKey(HistoryDatabase.self), ServiceKey(RunHTTPClient.self)])

    /// The start-up of the container's services, planned from the embedded environment's
    /// declared graph, which has every service: a remote environment's container has no
    /// `FactServer`, and its step ends at once there.
    static let servicePlan = AppServices.declaredGraph(embedded: true).startupPlan(startup)

    /// The ids, titles, timeouts and optionality of the steps that make the planned services.
    static let serviceOptions: [ServiceKey: PlannedStepOptions] = [
        ServiceKey(HistoryDatabase.self): PlannedStepOptions(
            id: "history", title: "Open the history database", optional: true, timeout: .seconds(15)),
        ServiceKey(FactServer.self): PlannedStepOptions(
            id: "server", title: "Start the fact server", timeout: .seconds(15), ifRegistered: true),
        ServiceKey(RunHTTPClient.self): PlannedStepOptions(id: "client", title: "Create the HTTP client"),
        ServiceKey(FactService.self): PlannedStepOptions(id: "service", title: "Connect the fact service"),
    ]

    /// The id of the step that makes `service`: its option's, else the key's description.
    static func stepID(of service: StartupPlan.Service) -> String {
        serviceOptions[service.key]?.id ?? service.id
    }

    /// The steps that make the services of `servicePlan`, once the services are registered,
    /// each in the run's container (after the run this one replaces has shut down, so the new
    /// server can take its port).
    static let serviceSteps = InitializationStep<AppProcess>.planned(
        servicePlan, after: ["services"], options: serviceOptions
    ) { process in
        await process.retireReplacedRun()
        return try await process.services().0
    }

    static let steps: [InitializationStep<AppProcess>] =
        [
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
                    logger: AppLog.logger(level: process.options.logLevel, file: process.options.logFile),
                    historyProblem: { error in await process.noteHistoryProblem(error) }
                )
            },
        ]
        + serviceSteps + [
            .async(
                "fact", title: "Fetch the first cat fact", type: .repeatable, after: ["service"],
                timeout: .seconds(90), retry: factRetry
            ) { process in
                let (container, environment) = try await process.services()
                let service = try await container.resolveAsync(FactService.self)
                return try await FactRepository(service: service, history: nil, environment: environment.name)
                    .fetchFact()
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
                    let history = try await container.resolveAsync(HistoryDatabase.self)
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
