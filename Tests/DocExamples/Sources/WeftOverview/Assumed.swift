// The app's types the overview's example uses without showing them.
import Foundation

protocol Logger: Sendable {
    func log(_ message: String)
}

struct ConsoleLogger: Logger {
    func log(_ message: String) { print(message) }
}

final class Database: Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var openings = 0
    /// How many times `open()` ran.
    static var opened: Int { lock.withLock { openings } }

    static func open() async throws -> Database {
        lock.withLock { openings += 1 }
        return Database()
    }
}

struct UserService: Sendable {
    let logger: any Logger
    let database: Database
}
