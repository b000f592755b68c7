// The process block of Sources/WeftInitializer/WeftInitializer.docc/StartUpWithTheInitializer.md.

// doc begins
import WeftInitializer

@MainActor
final class AppProcess: DependencyInitializationProcess {
    let environment: Environment
    var service: FactService?
    var database: Database?
    var repository: Repository?
    var firstFact: CatFact?

    init(environment: Environment) { self.environment = environment }

    var toContainer: AppDependencies {
        get throws {
            guard let repository else { throw MissingPiece(name: "repository") }
            guard let firstFact else { throw MissingPiece(name: "first cat fact") }
            return AppDependencies(environment: environment, repository: repository, firstFact: firstFact)
        }
    }
}
// doc ends
