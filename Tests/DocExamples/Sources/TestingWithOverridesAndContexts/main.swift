import Weft

let container = Container()
container.register((any API).self) { LiveAPI() }
try overrideTheAPI(container)
let restored = try container.require((any API).self)
precondition(restored is LiveAPI)
container.removeAll()

// doc begins
extension Container.Context { static let staging: Self = "staging" }

container.register((any API).self, lifetime: .singleton) { LiveAPI() }
container.register((any API).self, lifetime: .singleton, when: .test) { MockAPI() }
container.register((any API).self, lifetime: .singleton, when: .staging) { StagingAPI() }

container.contexts = [.test]
print(type(of: try container.require((any API).self)))  // MockAPI
container.contexts = []
print(type(of: try container.require((any API).self)))  // LiveAPI
// doc ends

try await checkoutCharges()
setAnInjectedProperty()
injectedFromATestContainer()
try await theAppConfigurationResolves()
try await checkTheAppConfiguration()

// The other way the article gives: a plain @Injected under withIsolatedShared(testContainer).
let testContainer = Container()
testContainer.register((any API).self) { MockAPI() }
await Container.withIsolatedShared(testContainer) {
    precondition(CheckoutModel().api is MockAPI)
}
