import Testing
import Weft
import WeftTesting

struct Settings: Sendable { let region: String }
struct Greeter: Sendable { let settings: Settings }

/// What the app under test does: resolve from the shared container.
func greeting() throws -> String {
    "hello (\(try Container.shared.require(Greeter.self).settings.region))"
}

@Suite("A library user's tests, with WeftTesting")
struct GreeterTests {
    @Test(
        .isolatedContainer { container in
            container.register(Settings.self, lifetime: .singleton) { Settings(region: "test") }
            container.register(Greeter.self) { r in Greeter(settings: try r.resolve(Settings.self)) }
        })
    func greetsFromTheTestContainer() async throws {
        #expect(try greeting() == "hello (test)")
        await expectValid(Container.shared)
    }

    @Test("The clock moves only when the test moves it")
    func manualClock() async throws {
        let clock = ManualClock()
        let nap = Task { try await clock.sleep(for: .seconds(5)) }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        try await nap.value
        #expect(clock.now == ManualClock.Instant(offset: .seconds(5)))
    }
}
