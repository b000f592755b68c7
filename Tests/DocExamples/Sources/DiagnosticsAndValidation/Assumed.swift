// The article's own types, which it assumes rather than shows.
import Foundation
import Weft

/// Stands for a metrics client: it counts what it is given.
final class Metrics: @unchecked Sendable {  // its counts sit behind a lock
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func increment(_ name: String) {
        lock.withLock { counts[name, default: 0] += 1 }
    }

    func record(_ name: String, _ duration: Duration) {
        increment(name)
    }

    func count(_ name: String) -> Int {
        lock.withLock { counts[name, default: 0] }
    }
}

final class Database: Sendable {}
final class Feed: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}

final class Session: Sendable {}
final class Cache: Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}

/// A connection pool whose `ping()` answers.
final class ConnectionPool: Sendable {
    func ping() async -> Bool { true }
}

/// A session that takes 60 ms to make, over the 50 ms threshold.
func slowSession() -> Session {
    Thread.sleep(forTimeInterval: 0.06)
    return Session()
}

/// A server that opens its port in `listen()`, counted in `metrics`.
final class Server: @unchecked Sendable {  // its flag sits behind a lock
    private let lock = NSLock()
    private var listening = false

    func listen() {
        lock.withLock { listening = true }
        metrics.increment("listen")
    }

    var isListening: Bool { lock.withLock { listening } }
}
