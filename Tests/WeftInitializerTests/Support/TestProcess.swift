import WeftInitializer

/// What `TestProcess` assembles: everything the steps wrote.
struct TestContainer: Equatable, Sendable {
    let environment: String
    let log: [String]
    let database: String?
}

/// A process recording which steps wrote into it, on the main actor.
@MainActor
final class TestProcess: DependencyInitializationProcess {
    let environment: String
    var log: [String] = []
    var database: String?
    var containerError: (any Error)?

    init(environment: String = "default", database: String? = nil) {
        self.environment = environment
        self.database = database
    }

    func append(_ entry: String) {
        log.append(entry)
    }

    var toContainer: TestContainer {
        get throws {
            if let containerError { throw containerError }
            return TestContainer(environment: environment, log: log, database: database)
        }
    }
}

/// An error a test step throws on purpose.
struct TestError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}
