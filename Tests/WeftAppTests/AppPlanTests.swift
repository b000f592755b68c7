import AsyncHTTPClient
import Foundation
import Testing
import Weft
import WeftInitializer
import WeftTestSupport

@testable import FactKit
@testable import WeftApp

/// The whole initialization plan against real parts: the bundled server on a loopback port,
/// a real SQLite file in a temporary directory.
@MainActor
@Suite("App initialization plan")
struct AppPlanTests {
    private func options(_ directory: URL, environment: String? = nil) -> AppOptions {
        AppOptions(environmentName: environment, databaseURL: directory.appendingPathComponent("history.sqlite"))
            .underTest
    }

    private func run(_ options: AppOptions) async throws -> InitializationResult<AppProcess> {
        try await AppPlan.makeInitializer(options: options).run()
    }

    private func failure(_ options: AppOptions) async throws -> InitializationFailure<AppProcess> {
        do {
            let result = try await run(options)
            await result.container.shutdown()
            Issue.record("expected the run to fail")
            throw CancellationError()
        } catch let failure as InitializationFailure<AppProcess> {
            return failure
        }
    }

    @Test("The plan is a graph: the fact waits for the fact service, planned from the container, not for the history")
    func plan() throws {
        let initializer = try AppPlan.makeInitializer(options: AppOptions())
        #expect(
            initializer.plan.map(\.title) == [
                "Load settings", "Choose the environment", "Register services", "Start the fact server",
                "Open the history database", "Create the HTTP client", "Connect the fact service",
                "Fetch the first cat fact", "Record the fact in the history", "Check service health",
            ])
        let after = Dictionary(uniqueKeysWithValues: initializer.plan.map { ($0.id, $0.after) })
        #expect(after["fact"] == ["service"])
        // The container's graph says what the fact service waits for.
        #expect(after["service"] == ["services", "server", "client"])
        #expect(after["client"] == ["services"])
        #expect(after["record"] == ["fact", "history"])
        let optional = initializer.plan.filter(\.isOptional).map(\.id)
        #expect(optional == ["history", "record"])
        #expect(initializer.plan.first { $0.id == "fact" }?.retry.attempts == 3)
    }

    @Test("The services' steps are planned from the container: the declared graph plans as the real factories do")
    func servicesArePlanned() async throws {
        let plan = AppPlan.servicePlan
        #expect(plan.hazards.isEmpty)
        #expect(
            plan.beforeReady.map(\.key.description) == [
                "FactServer", "HistoryDatabase", "RunHTTPClient", "FactService",
            ])
        #expect(plan.afterReady.isEmpty && plan.onDemand == [ServiceKey(Environment.self)])
        // The real container, validated with the same declaration, plans the same start-up.
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let environment = try EnvironmentCatalog.bundled().environment(named: "embedded")
        let container = AppServices.makeContainer(
            environment: environment, databaseURL: directory.appendingPathComponent("history.sqlite"), database: nil)
        container.startup = AppPlan.startup
        let report = await container.validate()
        #expect(report.isValid, "\(report.problems)")
        #expect(report.startupPlan == plan)
    }

    @Test("The embedded environment initializes fully: a fact, recorded, from a running server")
    func embedded() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let result = try await run(options(directory))
        let app = result.container
        defer { Task { await app.shutdown() } }
        #expect(app.environment.name == "embedded")
        #expect(!app.firstFact.text.isEmpty)
        #expect(app.firstFact.factsStored == 1)
        #expect(app.firstFact.timesSeen == 1)
        let server = try await #require(result.process.container).resolveAsync(FactServer.self)
        #expect(await server.isRunning)
        #expect(try await app.history?.factsStored() == 1)
        #expect(app.historyProblem == nil && !result.isDegraded)
        // The health check runs after ready: the first screen does not wait for it.
        #expect(result.report.stepsAfterReady.isEmpty)
        let whole = await result.waitForLaterSteps()
        #expect(whole.stepsAfterReady.map(\.step.id) == ["health"])
        #expect(try #require(whole.ready) <= whole.elapsed)
        let health = try #require(result.process.health)
        if case .unhealthy = health.overall { Issue.record("unhealthy: \(health.overall)") }
        // The parallel steps shared one database, server and repository through the container.
        let cached = Set(app.container.registrations.filter(\.hasCachedInstance).map(\.key.description))
        #expect(cached.isSuperset(of: ["HistoryDatabase", "FactServer", "FactService", "RunHTTPClient"]))
        // And the next fact comes through the repository without initializing again.
        let next = try await app.repository.nextFact()
        #expect((next.factsStored ?? 0) >= 1)
        await app.shutdown()
        #expect(await server.isRunning == false)
    }

    @Test("broken fails at the fact step with HTTP 500; runRepeat into embedded succeeds")
    func brokenThenEmbedded() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let failure = try await failure(options(directory, environment: "broken"))
        #expect(failure.failedStep.title == "Fetch the first cat fact")
        #expect(failure.failedStep.isAsync)
        #expect(failure.report.steps.first { $0.step.id == "fact" }?.attempts == 3, "retried with backoff")
        guard case .service(.httpStatus(_, 500))? = failure.error as? FactRepositoryError else {
            Issue.record("unexpected \(failure.error)")
            return
        }
        #expect(FailureAdvice.hint(for: failure.error, environment: failure.process.environment).contains("HTTP 500"))
        // The fact step started the broken server through the container, whichever step asked first.
        let brokenContainer = try #require(failure.process.container)
        #expect(brokenContainer.registrations.contains { $0.key.description == "FactServer" && $0.hasCachedInstance })
        let brokenServer = try #require(brokenContainer.resolve(FactServer.self))
        #expect(await brokenServer.isRunning)

        let failedDatabase = try #require(failure.process.history, "the failed run opened the database")
        let repeated = try await failure.runRepeat(createProcess: AppPlan.switching(to: "embedded"))
        let app = repeated.container
        defer { Task { await app.shutdown() } }
        #expect(app.environment.name == "embedded")
        #expect(!app.firstFact.text.isEmpty)
        // Only repeatable steps ran again: settings were carried over, and the database step
        // found the database the failed run had opened and kept it.
        let ran = repeated.stepTimings.map(\.step.title)
        #expect(!ran.contains("Load settings"))
        #expect(ran.contains("Open the history database"))
        #expect(ran.contains("Fetch the first cat fact"))
        #expect(repeated.process.catalog == failure.process.catalog)
        #expect(repeated.process.database === failedDatabase)
        // The broken run's server was stopped by the repeat.
        #expect(await brokenServer.isRunning == false)
    }

    @Test("Switching environment stops the previous run's server and HTTP client and keeps the same database")
    func switching() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let first = try await run(options(directory))
        let firstServer = try #require(first.container.container.resolve(FactServer.self))
        let firstDatabase = try #require(first.process.history)
        let firstClient = try first.container.container.require(RunHTTPClient.self).client
        let second = try await first.runRepeat(createProcess: AppPlan.switching(to: "embedded"))
        defer { Task { await second.container.shutdown() } }
        #expect(await firstServer.isRunning == false)
        #expect(await firstClient.isShutDown, "the replaced run's HTTP client was shut down")
        let secondClient = try second.container.container.require(RunHTTPClient.self).client
        #expect(secondClient !== firstClient, "one HTTP client per run")
        #expect(await !secondClient.isShutDown)
        #expect(await second.container.container.resolve(FactServer.self)?.isRunning == true)
        #expect(second.process.database === firstDatabase)
        #expect((second.container.firstFact.factsStored ?? 0) >= 1)
        await second.container.shutdown()
        #expect(await secondClient.isShutDown, "shut down on exit")
    }

    @Test("An unknown environment fails at 'Choose the environment' and lists the known ones")
    func unknownEnvironment() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let failure = try await failure(options(directory, environment: "moon"))
        #expect(failure.failedStep.title == "Choose the environment")
        #expect(String(describing: failure.error).contains("embedded"))
    }

    @Test(
        "A corrupt history file degrades the run: the fact is shown unrecorded, the file untouched, and a retry tries again",
        arguments: 0..<3)
    func corruptDatabase(attempt: Int) async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let file = directory.appendingPathComponent("history.sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: file)
        let result = try await run(options(directory))
        let app = result.container
        #expect(result.isDegraded)
        #expect(result.report.failedOptionalSteps.map(\.id) == ["history"])
        #expect(result.report.skippedSteps.map(\.id) == ["record"])
        #expect(!app.firstFact.text.isEmpty && app.firstFact.timesSeen == nil)
        #expect(app.history == nil)
        #expect(String(describing: try #require(app.historyProblem)).contains(file.path))
        // A retry opens the history again (and fails the same way), and shows a fact again.
        let retried = try await result.runRepeat(createProcess: AppPlan.switching(to: nil))
        #expect(retried.report.steps.contains { $0.step.id == "history" && $0.outcome == .failed })
        #expect(retried.isDegraded && !retried.container.firstFact.text.isEmpty)
        await retried.container.shutdown()
        await app.shutdown()
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("Once the history can be opened, a retry of a degraded run records the fact and is no longer degraded")
    func degradedThenRecovered() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let blocker = directory.appendingPathComponent("history.sqlite")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        let result = try await run(options(directory))
        #expect(result.isDegraded)
        try FileManager.default.removeItem(at: blocker)
        let retried = try await result.runRepeat(createProcess: AppPlan.switching(to: nil))
        defer { Task { await retried.container.shutdown() } }
        #expect(!retried.isDegraded && retried.container.historyProblem == nil)
        #expect(retried.container.firstFact.timesSeen == 1)
        await result.container.shutdown()
        await retried.container.shutdown()
    }

    @Test("staging without a server fails as unreachable, with a hint to start one")
    func stagingWithoutServer() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        // Point staging at a port nothing listens on: refused at once. The timeout is long, so a
        // busy machine cannot turn the refusal into a timeout.
        let environments = directory.appendingPathComponent("environments.json")
        try Data(
            #"{"environments": [{"name": "staging", "description": "local", "source": "http://127.0.0.1:9", "timeoutSeconds": 30}]}"#
                .utf8
        )
        .write(to: environments)
        var options = options(directory, environment: "staging")
        options.environmentsFile = environments
        let failure = try await failure(options)
        #expect(failure.failedStep.title == "Fetch the first cat fact")
        #expect(
            FailureAdvice.hint(for: failure.error, environment: failure.process.environment)
                == "Is the server running? Try `weft serve --port 9` in another terminal.")
    }
}
