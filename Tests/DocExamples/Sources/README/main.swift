// The README's "container" block, then what its comments claim that it does not print.
// doc begins
import Weft

protocol Logger: Sendable { func log(_ message: String) }
struct ConsoleLogger: Logger { func log(_ message: String) { print(message) } }
final class Database: Sendable { static func open() async throws -> Database { Database() } }
struct UserService: Sendable {
    let logger: any Logger
    let database: Database
}

let container = Container()
container.register(Logger.self, lifetime: .singleton) { ConsoleLogger() }  // lazy
container.register(Database.self, lifetime: .singleton) { _ in try await Database.open() }
container.register(UserService.self) { resolver in  // transient
    UserService(
        logger: try await resolver.resolve(Logger.self),
        database: try await resolver.resolve(Database.self))
}

let users = try await container.resolveAsync(UserService.self)  // creates Database once
users.logger.log("ready")  // prints: ready
print(container.resolve(Logger.self) != nil)  // true
do {
    _ = try container.require(String.self)
} catch {
    print(error)  // No registration for String. Register it with `container.register(String.self) { … }`.
}
// doc ends

let again = try await container.resolveAsync(UserService.self)
precondition(again.database === users.database, "Database is created once")
