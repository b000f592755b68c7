import Testing
import Weft

// The README's "container in 20 lines", kept compiling and true.
private protocol ReadmeLogger: Sendable { func log(_ message: String) -> String }
private struct ReadmeConsoleLogger: ReadmeLogger { func log(_ message: String) -> String { message } }
private final class ReadmeDatabase: Sendable { static func open() async throws -> ReadmeDatabase { ReadmeDatabase() } }
private struct ReadmeUserService: Sendable {
    let logger: any ReadmeLogger
    let database: ReadmeDatabase
}

@Test("The README's container example works as written")
func readmeExample() async throws {
    let container = Container()
    container.register(ReadmeLogger.self, lifetime: .singleton) { ReadmeConsoleLogger() }
    container.register(ReadmeDatabase.self, lifetime: .singleton) { _ in try await ReadmeDatabase.open() }
    container.register(ReadmeUserService.self) { resolver in
        ReadmeUserService(
            logger: try await resolver.resolve(ReadmeLogger.self),
            database: try await resolver.resolve(ReadmeDatabase.self))
    }
    let users = try await container.resolveAsync(ReadmeUserService.self)
    let again = try await container.resolveAsync(ReadmeUserService.self)
    #expect(users.database === again.database)
    #expect(users.logger.log("ready") == "ready")
    #expect(container.resolve(ReadmeLogger.self) != nil)
    #expect(throws: ResolutionError.self) { try container.require(String.self) }
    do { _ = try container.require(String.self) } catch {
        #expect(
            error.description == "No registration for String. Register it with `container.register(String.self) { … }`."
        )
    }
}
