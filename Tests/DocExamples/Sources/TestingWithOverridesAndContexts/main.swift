import Testing
import Weft

try overrideTheAPI()

// doc begins
extension Container.Context { static let staging: Self = "staging" }

let contextual = Container()
contextual.register((any API).self, lifetime: .singleton) { LiveAPI() }
contextual.register((any API).self, lifetime: .singleton, when: .test) { MockAPI() }
contextual.register((any API).self, lifetime: .singleton, when: .staging) { StagingAPI() }

contextual.contexts = [.test]
print(type(of: try contextual.require((any API).self)))  // MockAPI
contextual.contexts = []
print(type(of: try contextual.require((any API).self)))  // LiveAPI
// doc ends

setAnInjectedProperty()
injectedFromATestContainer()

// The other way the article gives: a plain @Injected under withIsolatedShared(testContainer).
let testContainer = Container()
testContainer.register((any API).self) { MockAPI() }
await Container.withIsolatedShared(testContainer) {
    precondition(CheckoutModel().api is MockAPI)
}

// The article's tests (checkoutCharges, theAppConfigurationResolves), run as `swift test` runs them.
let status: CInt = await Testing.__swiftPMEntryPoint(passing: nil)
precondition(status == 0, "the article's tests failed")
