import Testing
import Weft

// doc begins
@Test func checkout() async throws {
    try await Container.withIsolatedShared {
        await Container.bootstrap(AppModule.register)
        let override = Container.shared.override((any Payments).self) { FakePayments() }
        defer { override.restore() }
        let payments = try Container.shared.require((any Payments).self)
        #expect(payments is FakePayments)  // tests running in parallel never see FakePayments
    }
}
// doc ends

/// Runs beside `checkout()`: it never sees the override.
@Test func receipts() async throws {
    try await Container.withIsolatedShared {
        await Container.bootstrap(AppModule.register)
        for _ in 0..<1000 {
            let payments = try Container.shared.require((any Payments).self)
            #expect(payments is LivePayments)
            await Task.yield()
        }
    }
}

protocol Payments: Sendable {}
struct LivePayments: Payments {}
struct FakePayments: Payments {}

/// The app's registrations, as `Container.bootstrap(_:)` takes them.
enum AppModule {
    static func register(_ container: Container) {
        container.register((any Payments).self, lifetime: .singleton) { LivePayments() }
    }
}
