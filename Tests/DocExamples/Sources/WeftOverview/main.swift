// The Swift block of Sources/Weft/Weft.docc/Weft.md. The types it leaves out are in Assumed.swift.

// doc begins
import Weft

let container = Container()
container.register((any Logger).self, lifetime: .singleton) { ConsoleLogger() }
container.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
container.register(UserService.self) { resolver in
    UserService(
        logger: try await resolver.resolve((any Logger).self),
        database: try await resolver.resolve(Database.self))
}

let users = try await container.resolveAsync(UserService.self)
let logger = container.resolve((any Logger).self)  // (any Logger)?
let checked = try container.require((any Logger).self)  // throws ResolutionError
// doc ends

precondition(Database.opened == 1, "nothing is created until it is resolved, and a singleton once")
precondition(logger is ConsoleLogger && checked is ConsoleLogger && users.logger is ConsoleLogger)
do {
    _ = try container.require(UserService.self)
    preconditionFailure("an async factory resolves synchronously")
} catch {
    precondition(error.code == .requiresAsync)
}
print("ok")
