import WeftInitializer

// What the article leaves to the app, as simply as possible.

enum Environment: Sendable {
    case production
    case staging
}

struct EnvironmentSettings: Sendable {
    let baseURL: String

    static func load(_ environment: Environment) throws -> EnvironmentSettings {
        switch environment {
        case .production: EnvironmentSettings(baseURL: "https://catfact.example")
        case .staging: EnvironmentSettings(baseURL: "https://staging.catfact.example")
        }
    }
}

struct CatFact: Sendable {
    let text: String
}

struct ServiceUnavailable: Error {}

/// How many fetches fail before one succeeds.
actor Failures {
    private var left = 0

    func add(_ count: Int) { left += count }

    func take() -> Bool {
        guard left > 0 else { return false }
        left -= 1
        return true
    }
}

struct FactClient: Sendable {
    /// Fetches that fail first, for the examples of retries.
    static let failures = Failures()

    let baseURL: String

    /// Takes 10 ms, the longest step of the examples.
    func catFact() async throws -> CatFact {
        if await Self.failures.take() { throw ServiceUnavailable() }
        try await Task.sleep(for: .milliseconds(10))
        return CatFact(text: "A cat has 32 muscles in each ear.")
    }
}

final class HistoryStore: Sendable {
    /// Whether another process holds the history, so that it cannot be opened.
    @TaskLocal static var isLocked = false

    let unreadCount = 3

    /// Takes 3 ms.
    static func open() async throws -> HistoryStore {
        guard !isLocked else { throw ServiceUnavailable() }
        try await Task.sleep(for: .milliseconds(3))
        return HistoryStore()
    }
}

struct AppDependencies {
    let client: FactClient
    let firstFact: CatFact
    let history: HistoryStore?
}

struct MissingPiece: Error {
    let name: String
}

/// A splash screen that marks retries and skipped steps.
@MainActor
final class Splash {
    private(set) var marks: [String] = []

    func markRetrying(_ step: InitializationStepInfo, _ attempt: Int, after delay: Duration) {
        marks.append("\(step.id): attempt \(attempt)")
    }

    func markSkipped(_ step: InitializationStepInfo) {
        marks.append("\(step.id): skipped")
    }
}

/// What the on-demand example builds from the history.
struct SearchIndex: Sendable {
    let entries: Int

    /// Takes 2 ms.
    static func build(from history: HistoryStore?) async throws -> SearchIndex {
        try await Task.sleep(for: .milliseconds(2))
        return SearchIndex(entries: history?.unreadCount ?? 0)
    }
}
