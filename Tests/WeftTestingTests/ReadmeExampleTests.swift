import Testing
import Weft
import WeftTesting

// The README's WeftTesting example: the lines between "doc begins" and "doc ends" are the
// README's block (scripts/doc-examples compares them), run here as the tests they are.
@Suite("The README's WeftTesting example")
struct ReadmeExampleTests {
    // doc begins
    @Test(.isolatedContainer { $0.register((any Payments).self, lifetime: .singleton) { FakePayments() } })
    func checkoutChargesTheFake() async throws {
        await expectValid(Container.shared)  // fails the test with every validate() problem
        try await Checkout().pay(cents: 500)  // Checkout resolves its Payments from Container.shared
        let payments = try #require(Container.shared.resolve((any Payments).self) as? FakePayments)
        #expect(await payments.charged == [500])
    }

    @Test func aDelayWaitsForTheClock() async throws {
        let clock = ManualClock()  // wrapped in InitializationClock, it drives a DependencyInitializer
        let nap = Task { try await clock.sleep(for: .seconds(5)) }
        try await clock.waitForSleepers(1)  // the task is asleep: advancing now wakes it
        clock.advance(by: .seconds(5))
        try await nap.value
    }
    // doc ends
}
