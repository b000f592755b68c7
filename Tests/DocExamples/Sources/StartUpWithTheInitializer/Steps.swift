import WeftInitializer

// doc begins
let preSyncSteps: [SyncInitializationStep<AppProcess>] = [
    SyncInitializationStep(title: "Create the service", type: .repeatable) { process in
        process.service = FactService(environment: process.environment)
    },
    SyncInitializationStep(title: "Open the database") { process in
        process.database = try Database.open()
    },
    SyncInitializationStep(title: "Create the repository", type: .repeatable) { process in
        guard let service = process.service else { throw MissingPiece(name: "service") }
        guard let database = process.database else { throw MissingPiece(name: "database") }
        process.repository = Repository(service: service, database: database)
    },
]

let asyncSteps: [AsyncInitializationStep<AppProcess>] = [
    AsyncInitializationStep(title: "Fetch the first cat fact", type: .repeatable, timeout: .seconds(30)) { process in
        guard let repository = await process.repository else { throw MissingPiece(name: "repository") }
        return try await repository.catFact()
    } apply: { process, fact in
        process.firstFact = fact
    },
    AsyncInitializationStep(title: "Warm the image cache", priority: .low) { _ in
        await ImageCache.shared.warm()
    },
]
// doc ends
