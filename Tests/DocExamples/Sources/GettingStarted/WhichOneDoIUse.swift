import Weft

/// Checks the rules the article's "Which one do I use" tables state (they show no Swift block).
func whichOneDoIUse() async throws {
    struct Greeting: Sendable { let api: any API }
    struct Banner: Sendable { let greeting: Greeting }

    let container = Container()
    container.register((any API).self) { LiveAPI() }
    // `async` only because its body says `await`: every synchronous caller fails.
    container.register(Greeting.self) { resolver in Greeting(api: try await resolver.resolve((any API).self)) }
    container.register(Banner.self) { resolver in
        Banner(greeting: try resolver.resolve(Greeting.self))
    }
    do {
        _ = try container.require(Greeting.self)
        preconditionFailure("an async factory resolves synchronously")
    } catch {
        precondition(error.code == .requiresAsync)
    }
    precondition(container.resolve(Greeting.self) == nil)
    _ = try await container.resolveAsync(Greeting.self)
    let report = await container.validate()
    let reported = report.problems.filter { $0.code == .requiresAsync }.map(\.service)
    precondition(reported == [ServiceKey(Banner.self)], "validate() reports the synchronous caller: \(report.problems)")

    // Without `await`, the same factory is synchronous and every verb resolves it.
    container.register(Greeting.self) { resolver in Greeting(api: try resolver.resolve((any API).self)) }
    _ = try container.require(Banner.self)
    let fixed = await container.validate()
    precondition(fixed.isValid, "\(fixed.problems)")

    // A failure inside a factory fails the outer resolve with the same error and its path.
    container.register(Banner.self) { resolver in Banner(greeting: try resolver.resolve(Greeting.self, name: "x")) }
    do {
        _ = try container.require(Banner.self)
        preconditionFailure("resolves a missing dependency")
    } catch {
        precondition(error.code == .notRegistered && error.path == [ServiceKey(Banner.self)], "\(error)")
    }
}
