import FactKit
import Foundation
import Weft
public import WeftInitializer

/// How `weft` initializes: the steps, their phases, and which of them a repeat run re-runs.
///
/// | phase | step | type |
/// |---|---|---|
/// | pre-sync | Load settings | simple |
/// | pre-sync | Choose the environment | repeatable |
/// | pre-sync | Register services | repeatable |
/// | async | Open the history database | repeatable (carries over once open) |
/// | async | Start the fact server | repeatable |
/// | async | Fetch the first cat fact | repeatable |
/// | async | Check service health | repeatable |
/// | post-sync | Assemble the app | repeatable |
///
/// The async steps run in parallel and meet in the container: the fact step resolves the
/// repository, which waits for the database and the server that the other steps are
/// creating at the same moment, so each is created once. Switching environment re-runs
/// only what depends on it (``switching(to:)``): settings and the open database carry over.
///
/// "Open the history database" owns the database: when it cannot be opened, that step is
/// the one that fails, on every run and every retry. The other steps that meet the same
/// failure through the container wait for the run to cancel them instead of failing too.
public enum AppPlan {
    /// An initializer for a first run with `options`; read its `plan` and subscribe to its
    /// `events()` before starting it.
    @MainActor
    public static func makeInitializer(options: AppOptions) throws(InitializationConfigurationError)
        -> DependencyInitializer<AppProcess>
    {
        try DependencyInitializer(
            createProcess: { AppProcess(options: options) },
            preSyncSteps: preSyncSteps,
            asyncSteps: asyncSteps,
            postSyncSteps: postSyncSteps
        )
    }

    /// The `createProcess` of a repeat run in `environment` (the current one when `nil`
    /// would be ambiguous, so pass the name): shuts down the previous run's container — its
    /// server and HTTP client — and keeps its settings and database.
    public static func switching(to environment: String?) -> @MainActor @Sendable (AppProcess) -> AppProcess {
        { previous in previous.next(environment: environment) }
    }

    // MARK: - Steps

    static let preSyncSteps: [SyncInitializationStep<AppProcess>] = [
        SyncInitializationStep(title: "Load settings", type: .simple) { process in
            process.catalog = try process.options.catalog()
        },
        SyncInitializationStep(title: "Choose the environment", type: .repeatable) { process in
            let catalog = try process.require(process.catalog, "the environments catalog")
            process.environment =
                try process.requestedEnvironment.map { name throws(EnvironmentCatalogError) in
                    try catalog.environment(named: name)
                } ?? catalog.defaultEnvironment
        },
        SyncInitializationStep(title: "Register services", type: .repeatable) { process in
            process.container = AppServices.makeContainer(
                environment: try process.require(process.environment, "the environment"),
                databaseURL: process.options.resolvedDatabaseURL,
                database: process.database,
                logger: AppLog.logger(level: process.options.logLevel, file: process.options.logFile)
            )
        },
    ]

    static let asyncSteps: [AsyncInitializationStep<AppProcess>] = [
        // Repeatable so that a retry after a failure to open tries again; once open, the
        // database is carried over and registered as an instance, so the step is instant.
        AsyncInitializationStep(title: "Open the history database", type: .repeatable, timeout: .seconds(15)) {
            process in
            let (container, _) = try await process.services()
            return try await container.resolveAsync(HistoryDatabase.self)
        } apply: { process, database in
            process.database = database
        },
        AsyncInitializationStep(title: "Start the fact server", type: .repeatable, timeout: .seconds(15)) { process in
            await process.retireReplacedRun()
            let (container, environment) = try await process.services()
            guard case .embedded = environment.source else { return FactServer?.none }
            return try await container.resolveAsync(FactServer.self)
        } apply: { process, server in
            process.server = server
        },
        AsyncInitializationStep(title: "Fetch the first cat fact", type: .repeatable, timeout: .seconds(90)) {
            process in
            let (container, _) = try await process.services()
            let repository = try await leavingHistoryFailures {
                try await container.resolveAsync(FactRepository.self)
            }
            return try await repository.nextFact()
        } apply: { process, fact in
            process.firstFact = fact
        },
        // Longer than the database step's timeout: if opening hangs, that step times out first.
        AsyncInitializationStep(title: "Check service health", type: .repeatable, timeout: .seconds(20)) { process in
            let (container, environment) = try await process.services()
            // Health checks never create services: make sure the ones to check exist.
            _ = try await leavingHistoryFailures { try await container.resolveAsync(HistoryDatabase.self) }
            if case .embedded = environment.source { _ = try await container.resolveAsync(FactServer.self) }
            let report = await container.checkHealth()
            if case .unhealthy = report.overall { throw UnhealthyServices(report: report) }
            return report
        } apply: { process, report in
            process.health = report
        },
    ]

    /// Runs `body` for a step that does not own the history database: when it fails because
    /// the database could not be opened, the step waits for the run to cancel it (the
    /// database step fails with that error), so the failure is always reported by
    /// "Open the history database", never by whichever step happened to see it first.
    static func leavingHistoryFailures<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch  where FailureAdvice.rootCause(of: error) is HistoryDatabaseError {
            let (cancelled, continuation) = AsyncStream.makeStream(of: Never.self)
            for await _ in cancelled {}  // ends when the task is cancelled
            continuation.finish()
            throw error
        }
    }

    static let postSyncSteps: [SyncInitializationStep<AppProcess>] = [
        SyncInitializationStep(title: "Assemble the app", type: .repeatable) { process in
            let (container, environment) = try process.services()
            process.dependencies = AppDependencies(
                catalog: try process.require(process.catalog, "the environments catalog"),
                environment: environment,
                container: container,
                repository: try container.require(FactRepository.self),
                history: try container.require(HistoryDatabase.self),
                firstFact: try process.require(process.firstFact, "the first fact"),
                health: try process.require(process.health, "the health report")
            )
        }
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
