import Testing
import Weft

/// Overrides.
func overrideTheAPI() throws {
    // doc begins
    let container = Container()
    container.register((any API).self) { LiveAPI() }

    let override = container.override((any API).self) { MockAPI() }
    defer { override.restore() }
    #expect(try container.require((any API).self) is MockAPI)
    // doc ends
    let api = try container.require((any API).self)
    precondition(api is MockAPI)
    override.restore()  // early: the deferred restore then does nothing more
    let restored = try container.require((any API).self)
    precondition(restored is LiveAPI)
}

// Parallel tests.
// doc begins
@Test func checkoutCharges() async throws {
    try await Container.withIsolatedShared {
        await Container.bootstrap { container in
            container.register((any Payments).self, lifetime: .singleton) { LivePayments() }
        }
        let override = Container.shared.override((any Payments).self, lifetime: .singleton) {
            FakePayments()
        }
        defer { override.restore() }
        let model = CheckoutModel()  // its @Injected properties resolve from this test's container
        try await model.pay()
    }
}
// doc ends

/// Property wrappers in tests.
func setAnInjectedProperty() {
    // doc begins
    let model = CheckoutModel()
    model.api = MockAPI()
    print(model.api is MockAPI)  // true
    // doc ends
}

/// A wrapper given a container, in a type declared inside a test.
func injectedFromATestContainer() {
    // doc begins
    final class ReceiptModel {
        @Injected var api: (any API)?
        init(container: Container) { _api = Injected(container: container) }
    }

    let testContainer = Container()
    testContainer.register((any API).self) { MockAPI() }
    let receipt = ReceiptModel(container: testContainer)
    print(receipt.api is MockAPI)  // true
    // doc ends
}

// Validate the graph in a test.
// doc begins
@Test func theAppConfigurationResolves() async throws {
    let container = Container()
    try await container.install([CoreModule(), NetworkModule(), UserFeature()])
    let report = await container.validate()
    #expect(report.isValid, "\(report.problems.map(\.description))")
}
// doc ends
