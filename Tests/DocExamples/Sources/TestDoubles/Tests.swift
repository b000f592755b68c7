import Testing
import Weft
import WeftTesting

// doc begins
func registerServices(in container: Container) {
    container.register((any HTTPClient).self, lifetime: .singleton) { LiveHTTPClient() }
        .liveOnly()
    container.register((any Analytics).self, lifetime: .singleton) { LiveAnalytics() }
        .testValue { NoAnalytics() }
    container.register(FactModel.self) { r in
        FactModel(client: try r.resolve((any HTTPClient).self), analytics: try r.resolve((any Analytics).self))
    }
}
// doc ends

// doc begins
@Test func factLoads() async throws {
    let container = Container()
    registerServices(in: container)
    let override = container.override((any HTTPClient).self) { FakeHTTPClient() }
    defer { override.restore() }
    let model = try container.require(FactModel.self)  // FakeHTTPClient, NoAnalytics
    #expect(try await model.load() == "a fact about cats")
}
// doc ends

// doc begins
@Test(.isolatedContainer(registerServices))
func factLoadsFromTheSharedContainer() async throws {
    let override = Container.shared.override((any HTTPClient).self) { FakeHTTPClient() }
    defer { override.restore() }
    #expect(try await Container.shared.require(FactModel.self).load() == "a fact about cats")
}
// doc ends

// doc begins
@Test func theLiveWiringResolves() throws {
    let container = Container()
    container.contexts.remove(.test)  // this test means the live values
    registerServices(in: container)
    #expect(try container.require((any HTTPClient).self) is LiveHTTPClient)
}
// doc ends

/// What the article says of a forgotten override: the resolve throws, naming the override.
@Test func forgottenOverrideThrows() {
    let container = Container()
    registerServices(in: container)
    let error = #expect(throws: ResolutionError.self) { try container.require(FactModel.self) }
    #expect(error?.code == .liveOnly)
    #expect(error?.description.contains("container.override(") == true)
}
