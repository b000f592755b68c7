import Testing
import Weft
import WeftTesting

// doc begins
func registerServices(in container: Container) {
    container.register((any HTTPClient).self, lifetime: .singleton) { LiveHTTPClient() }
        .liveOnly()
    container.register((any Analytics).self, lifetime: .singleton) { LiveAnalytics() }
        .testValue { NoAnalytics() }
}
// doc ends

// doc begins
@Test(.isolatedContainer(registerServices))
func factLoads() async throws {
    let override = Container.shared.override((any HTTPClient).self) { FakeHTTPClient() }
    defer { override.restore() }
    let client = try Container.shared.require((any HTTPClient).self)
    #expect(try await client.get("/fact") == "a fact about cats")
    try Container.shared.require((any Analytics).self).track("fact shown")  // NoAnalytics
}
// doc ends

// doc begins
@Test(.isolatedContainer(registerServices))
func forgottenOverride() {
    withKnownIssue {  // HTTPClient (registered at …) is live only (`.liveOnly()`) …
        _ = try Container.shared.require((any HTTPClient).self)
    }
}
// doc ends

/// Outside a test context the live values are what the app gets. (This process runs the
/// article's tests, so its containers start as test contexts: this one is made the app's.)
func liveOutsideTests() {
    let container = Container()
    container.contexts = []
    registerServices(in: container)
    precondition(container.resolve((any HTTPClient).self) is LiveHTTPClient)
    precondition(container.resolve((any Analytics).self) is LiveAnalytics)
}
