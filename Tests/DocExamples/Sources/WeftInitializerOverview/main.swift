// The Swift blocks of Sources/WeftInitializer/WeftInitializer.docc/WeftInitializer.md, run in
// order. Types the article leaves out are in Assumed.swift.

// doc begins
import WeftInitializer

@MainActor
final class AppProcess: DependencyInitializationProcess {
    let environment: Environment
    var database: Database?
    var repository: Repository?
    var firstFact: CatFact?

    init(environment: Environment) { self.environment = environment }

    var toContainer: AppDependencies {
        get throws {
            guard let repository, let firstFact else { throw MissingPiece() }
            return AppDependencies(environment: environment, repository: repository, firstFact: firstFact)
        }
    }
}

let preSyncSteps: [SyncInitializationStep<AppProcess>] = [
    SyncInitializationStep(title: "Open the database") { process in
        process.database = try Database.open()
    },
    SyncInitializationStep(title: "Create the repository", type: .repeatable) { process in
        guard let database = process.database else { throw MissingPiece() }
        process.repository = Repository(environment: process.environment, database: database)
    },
]
let asyncSteps: [AsyncInitializationStep<AppProcess>] = [
    AsyncInitializationStep(title: "Fetch a cat fact", type: .repeatable, timeout: .seconds(5)) { process in
        guard let repository = await process.repository else { throw MissingPiece() }
        return try await repository.catFact()
    } apply: { process, fact in
        process.firstFact = fact
    }
]

let initializer = try DependencyInitializer(
    createProcess: { AppProcess(environment: .production) },
    preSyncSteps: preSyncSteps,
    asyncSteps: asyncSteps
)
let result = try await initializer.run()
print(result.container.firstFact.text)  // A cat has 32 muscles in each ear.
// doc ends

try await startFromAButton()

try await switchToStaging()
