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
/// | async | Open the history database | simple |
/// | async | Start the fact server | repeatable |
/// | async | Fetch the first cat fact | repeatable |
/// | async | Check service health | repeatable |
/// | post-sync | Assemble the app | repeatable |
///
/// The async steps run in parallel and meet in the container: the fact step resolves the
/// repository, which waits for the database and the server that the other steps are
/// creating at the same moment, so each is created once. Switching environment re-runs
/// only what depends on it (``switching(to:)``): settings and the open database carry over.
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
    /// would be ambiguous, so pass the name): stops the previous run's server and keeps its
    /// settings and database.
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
            process.environment = try process.requestedEnvironment.map { name throws(EnvironmentCatalogError) in
                try catalog.environment(named: name)
            } ?? catalog.defaultEnvironment
        },
        SyncInitializationStep(title: "Register services", type: .repeatable) { process in
            process.container = AppServices.makeContainer(
                environment: try process.require(process.environment, "the environment"),
                databaseURL: process.options.resolvedDatabaseURL,
                database: process.database,
                servers: process.servers,
                logger: AppLog.logger(level: process.options.logLevel, file: process.options.logFile)
            )
        },
    ]

    static let asyncSteps: [AsyncInitializationStep<AppProcess>] = [
        AsyncInitializationStep(title: "Open the history database", type: .simple, timeout: .seconds(15)) { process in
            let (container, _) = try await process.services()
            return try await container.resolveAsync(HistoryDatabase.self)
        } apply: { process, database in
            process.database = database
        },
        AsyncInitializationStep(title: "Start the fact server", type: .repeatable, timeout: .seconds(15)) { process in
            await process.retiredServers?.stopAll()
            let (container, environment) = try await process.services()
            guard case .embedded = environment.source else { return FactServer?.none }
            return try await container.resolveAsync(FactServer.self)
        } apply: { process, server in
            process.server = server
        },
        AsyncInitializationStep(title: "Fetch the first cat fact", type: .repeatable, timeout: .seconds(90)) { process in
            let (container, _) = try await process.services()
            return try await container.resolveAsync(FactRepository.self).nextFact()
        } apply: { process, fact in
            process.firstFact = fact
        },
        AsyncInitializationStep(title: "Check service health", type: .repeatable, timeout: .seconds(15)) { process in
            let (container, environment) = try await process.services()
            // Health checks never create services: make sure the ones to check exist.
            _ = try await container.resolveAsync(HistoryDatabase.self)
            if case .embedded = environment.source { _ = try await container.resolveAsync(FactServer.self) }
            let report = await container.checkHealth()
            if case .unhealthy = report.overall { throw UnhealthyServices(report: report) }
            return report
        } apply: { process, report in
            process.health = report
        },
    ]

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
                health: try process.require(process.health, "the health report"),
                servers: process.servers
            )
        },
    ]
}

/// A health check found a service not working.
struct UnhealthyServices: Error, Sendable, CustomStringConvertible {
    let report: HealthReport

    var description: String {
        let failing = report.statuses
            .filter { if case .unhealthy = $0.value { true } else { false } }
            .map { "\($0.key): \($0.value)" }
            .sorted()
        return "Unhealthy: " + failing.joined(separator: "; ")
    }
}
