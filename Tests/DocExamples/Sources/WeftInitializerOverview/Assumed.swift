import WeftInitializer

// What the article leaves to the app, as simply as possible.

enum Environment: Sendable {
    case production
    case staging
}

final class Database: Sendable {
    static func open() throws -> Database { Database() }
}

struct CatFact: Sendable {
    let text: String
}

struct Repository: Sendable {
    let environment: Environment
    let database: Database

    func catFact() async throws -> CatFact {
        CatFact(text: "A cat has 32 muscles in each ear.")
    }
}

struct AppDependencies {
    let environment: Environment
    let repository: Repository
    let firstFact: CatFact
}

struct MissingPiece: Error {}

/// A splash screen that lists the steps and marks them as they run.
@MainActor
final class Splash {
    private(set) var done: [String] = []

    func show(_ plan: [InitializationStepInfo]) {
        print("splash: \(plan.count) steps")
    }

    func markRunning(_ step: InitializationStepInfo) {
        print("splash: \(step.title)…")
    }

    func markDone(_ step: InitializationStepInfo, after duration: Duration) {
        done.append(step.title)
        print("splash: \(step.title) done")
    }
}

/// What the app showed last: the main screen or the error screen.
@MainActor var shown: String?

@MainActor
func show(_ dependencies: AppDependencies) {
    shown = "ready in \(dependencies.environment)"
}

@MainActor
func showError(_ failure: InitializationFailure<AppProcess>) {
    shown = "error: \(failure)"
}
