import Testing
import WeftInitializer

// The seed README's flow (environment → service → database → repository → cat fact),
// with in-memory stand-ins for the HTTP service and the database.

private struct CatFact: Equatable, Sendable {
    let text: String
}

private struct Environment: Sendable {
    let name: String
    let facts: [String]
}

/// Serves facts from the environment instead of over HTTP.
private struct InMemoryService: Sendable {
    let environment: Environment

    func fetchFact() async throws -> CatFact {
        guard let text = environment.facts.first else {
            throw TestError(message: "\(environment.name) has no facts")
        }
        return CatFact(text: text)
    }
}

/// Remembers the facts it was given.
private actor InMemoryDatabase {
    private(set) var saved: [CatFact] = []

    func save(_ fact: CatFact) {
        saved.append(fact)
    }
}

private struct Repository: Sendable {
    let service: InMemoryService
    let database: InMemoryDatabase

    func getCatFact() async throws -> CatFact {
        let fact = try await service.fetchFact()
        await database.save(fact)
        return fact
    }
}

private struct MissingPiece: Error, CustomStringConvertible {
    let name: String
    var description: String { "The process has no \(name); add the step that creates it." }
}

private final class Dependency: Sendable {
    let environment: Environment
    let repository: Repository
    let initialCatFact: CatFact

    init(environment: Environment, repository: Repository, initialCatFact: CatFact) {
        self.environment = environment
        self.repository = repository
        self.initialCatFact = initialCatFact
    }
}

@MainActor
private final class InitializationProcess: DependencyInitializationProcess {
    let environment: Environment
    var service: InMemoryService?
    var database: InMemoryDatabase?
    var repository: Repository?
    var initialCatFact: CatFact?

    init(environment: Environment) {
        self.environment = environment
    }

    var toContainer: Dependency {
        get throws {
            guard let repository else { throw MissingPiece(name: "repository") }
            guard let initialCatFact else { throw MissingPiece(name: "initial cat fact") }
            return Dependency(environment: environment, repository: repository, initialCatFact: initialCatFact)
        }
    }
}

private let production = Environment(name: "production", facts: ["Cats sleep 16 hours a day."])
private let staging = Environment(name: "staging", facts: ["Cats have five toes on their front paws."])

private let preSyncSteps: [SyncInitializationStep<InitializationProcess>] = [
    SyncInitializationStep(title: "Create the service", type: .repeatable) { process in
        process.service = InMemoryService(environment: process.environment)
    },
    SyncInitializationStep(title: "Open the database") { process in
        process.database = InMemoryDatabase()
    },
    SyncInitializationStep(title: "Create the repository", type: .repeatable) { process in
        guard let service = process.service else { throw MissingPiece(name: "service") }
        guard let database = process.database else { throw MissingPiece(name: "database") }
        process.repository = Repository(service: service, database: database)
    },
]

private let asyncSteps: [AsyncInitializationStep<InitializationProcess>] = [
    AsyncInitializationStep(title: "Fetch the first cat fact", type: .repeatable, timeout: .seconds(30)) { process in
        guard let repository = await process.repository else { throw MissingPiece(name: "repository") }
        return try await repository.getCatFact()
    } apply: { process, fact in
        process.initialCatFact = fact
    }
]

@MainActor
@Suite("Seed README example", .timeLimit(.minutes(1)))
struct SeedExampleTests {
    @Test("builds the container through environment, service, database, repository and cat fact")
    func example() async throws {
        let log = CallbackLog()
        let (done, finish) = AsyncStream<Dependency>.makeStream()
        try DependencyInitializer(
            createProcess: { InitializationProcess(environment: production) },
            preSyncSteps: preSyncSteps,
            asyncSteps: asyncSteps,
            callbacks: InitializationCallbacks(
                onSuccess: { result in
                    finish.yield(result.container)
                    finish.finish()
                },
                onError: { failure in
                    log.entries.append("\(failure)")
                    finish.finish()
                }
            )
        ).start()
        var containers: [Dependency] = []
        for await container in done { containers.append(container) }
        #expect(log.entries.isEmpty)
        let dependency = try #require(containers.first)
        #expect(dependency.environment.name == "production")
        #expect(dependency.initialCatFact == CatFact(text: "Cats sleep 16 hours a day."))
        #expect(await dependency.repository.database.saved == [dependency.initialCatFact])
    }

    @Test("switches environment with runRepeat, keeping the database the simple step opened")
    func environmentSwitch() async throws {
        let initializer = try DependencyInitializer(
            createProcess: { InitializationProcess(environment: production) },
            preSyncSteps: preSyncSteps,
            asyncSteps: asyncSteps
        )
        let first = try await initializer.run()
        let second = try await first.runRepeat(createProcess: { previous in
            let process = InitializationProcess(environment: staging)
            process.database = previous.database
            return process
        })
        #expect(second.container.environment.name == "staging")
        #expect(second.container.initialCatFact == CatFact(text: "Cats have five toes on their front paws."))
        #expect(second.container.repository.database === first.container.repository.database)
        #expect(await second.container.repository.database.saved.count == 2)
    }

    @Test("without carrying the database over, the repeat run fails in the step that needs it")
    func forgottenCarryOver() async throws {
        let first = try await DependencyInitializer(
            createProcess: { InitializationProcess(environment: production) },
            preSyncSteps: preSyncSteps,
            asyncSteps: asyncSteps
        ).run()
        do {
            _ = try await first.runRepeat()
            Issue.record("The repeat run succeeded without a database")
        } catch let failure as InitializationFailure<InitializationProcess> {
            #expect(failure.failedStep.title == "Create the repository")
            #expect("\(failure)".hasSuffix("The process has no database; add the step that creates it."))
        }
    }
}
