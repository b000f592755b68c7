import Testing
import Weft
import WeftApp

@testable import WeftTUI

@Suite("The screens' composition root")
struct ScreenCompositionTests {
    @Test("The app's model is main-actor state: made in place on the main actor, once, and never elsewhere")
    func modelIsMadeOnTheMainActor() async throws {
        let sandbox = try AppSandbox()
        defer { sandbox.remove() }
        let screens = await MainActor.run {
            ScreenComposition.container(
                options: sandbox.options(), logo: ["logo"], effects: EffectLog().effects)
        }
        // Off the main actor, nothing is made: a typed error saying what to do instead.
        let offMainActor = await Task.detached {
            Result { () throws(ResolutionError) in try screens.require(AppModel.self) }
        }.value
        guard case .failure(let error) = offMainActor else {
            Issue.record("the model was made off the main actor")
            return
        }
        #expect(error.code == .requiresIsolation && error.key == ServiceKey(AppModel.self))

        let model = try await MainActor.run { try screens.require(AppModel.self) }
        let logo = await model.logo
        #expect(logo == ["logo"])
        // Once made, every context gets the same model.
        #expect(try await Task.detached { try screens.require(AppModel.self) }.value === model)
        #expect(try await screens.resolveAsync(AppModel.self) === model)
        #expect(await screens.validate().isValid)
    }
}
