import Testing
import Weft
import WeftInitializer

/// Main-actor state a start-up step makes, as a screen's presenter would be.
@MainActor
final class Presenter: Sendable {
    let title: String
    init(title: String) { self.title = title }
}

@MainActor
final class PresentingProcess: DependencyInitializationProcess {
    let container = Container()
    var presented: Presenter?
    var toContainer: Container { container }
}

@Suite("Start-up steps and main-actor services")
struct InitializerIsolationTests {
    @Test("Sync steps resolve main-actor services synchronously; async steps resolve them with await")
    @MainActor
    func stepsResolveMainActorServices() async throws {
        let initializer = try DependencyInitializer<PresentingProcess>(
            createProcess: { PresentingProcess() },
            steps: [
                .sync("register") { process in
                    process.container.register(Presenter.self, lifetime: .singleton, isolation: .shared) {
                        Presenter(title: "Facts")
                    }
                },
                // Off the main actor: `await` hops to it to make the presenter (or finds it made).
                .async("warm", after: ["register"]) { process in
                    let presenter = try await process.container.resolveAsync(Presenter.self)
                    #expect(presenter.title == "Facts")
                },
                // On the main actor: resolved in place, without a hop.
                .sync("present", after: ["register"]) { process in
                    process.presented = try process.container.require(Presenter.self)
                },
            ])
        let result = try await initializer.run()
        let container = result.container
        #expect(try container.require(Presenter.self) === result.process.presented)
        #expect(result.report.steps.allSatisfy { $0.outcome == .finished })
    }
}
