import FactKit
import WeftInitializer

/// The main screen's state: the initialized app, the fact shown and the fetch in flight.
public struct MainState: Sendable {
    /// The successful run (its container is the app's dependencies).
    public var result: InitializationResult<AppProcess>
    /// The fact shown.
    public var fact: Fact
    /// Whether a next fact is being fetched.
    public var isFetching = false
    /// The last fetch error, in a sentence, or `nil`.
    public var notice: String?

    /// Creates the state right after a successful run.
    @MainActor
    public init(result: InitializationResult<AppProcess>) {
        self.result = result
        self.fact = result.container.firstFact
    }

    /// The running app.
    @MainActor public var dependencies: AppDependencies { result.container }
}
