import WeftInitializer

// What the article leaves to the app, as simply as possible.

enum Environment: Sendable {
    case production
    case staging
}

struct CatFact: Sendable {
    let text: String
}

struct ServiceUnavailable: Error, CustomStringConvertible {
    var description: String { "the cat fact service is unavailable" }
}

struct FactService: Sendable {
    /// Whether the service is down; main turns it off to show a failed run.
    @TaskLocal static var isDown = false

    let environment: Environment

    func catFact() async throws -> CatFact {
        guard !Self.isDown else { throw ServiceUnavailable() }
        try await Task.sleep(for: .milliseconds(5))
        return CatFact(text: "A cat has 32 muscles in each ear.")
    }
}

final class Database: Sendable {
    static func open() throws -> Database { Database() }
}

struct Repository: Sendable {
    let service: FactService
    let database: Database

    func catFact() async throws -> CatFact { try await service.catFact() }
}

struct AppDependencies {
    let environment: Environment
    let repository: Repository
    let firstFact: CatFact
}

struct MissingPiece: Error {
    let name: String
}

final class ImageCache: Sendable {
    static let shared = ImageCache()

    func warm() async {}
}

@MainActor
func show(_ dependencies: AppDependencies) {
    print("main screen: \(dependencies.firstFact.text)")
}

@MainActor
func showError(_ failure: InitializationFailure<AppProcess>) {
    print("error screen: \(failure.failedStep.title)")
}

/// A splash screen that marks the steps as they run.
@MainActor
final class Splash {
    func markRunning(_ step: InitializationStepInfo) {
        print("splash: \(step.title)…")
    }

    func markDone(_ step: InitializationStepInfo, after duration: Duration) {
        print("splash: \(step.title) done")
    }

    func markFailed(_ step: InitializationStepInfo, _ error: any Error) {
        print("splash: \(step.title) failed: \(error)")
    }

    func markCancelled(_ step: InitializationStepInfo) {
        print("splash: \(step.title) cancelled")
    }
}
