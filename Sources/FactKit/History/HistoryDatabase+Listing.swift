import Foundation
import GRDB

extension HistoryDatabase {
    /// The history's facts, most recently shown first.
    ///
    /// - Parameter limit: At most this many entries; `nil` for all.
    public func entries(limit: Int? = nil) async throws(HistoryDatabaseError) -> [HistoryEntry] {
        let path = url.path
        return try await read { db in
            // The latest sighting of each fact: its time and environment.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT fact.text AS text, counts.seen AS seen, latest.fetchedAt AS lastSeen, latest.environment AS environment
                    FROM fact
                    JOIN (SELECT factId, COUNT(*) AS seen, MAX(id) AS lastId FROM sighting GROUP BY factId) AS counts
                      ON counts.factId = fact.id
                    JOIN sighting AS latest ON latest.id = counts.lastId
                    ORDER BY latest.fetchedAt DESC, latest.id DESC
                    LIMIT ?
                    """,
                arguments: [limit.map { max(0, $0) } ?? -1])
            return try rows.map { row in
                HistoryEntry(
                    text: try Self.decode(row, "text", path: path), timesSeen: try Self.decode(row, "seen", path: path),
                    lastSeen: try Self.decode(row, "lastSeen", path: path),
                    environment: try Self.decode(row, "environment", path: path))
            }
        }
    }

    /// The column `name` of `row`; a value of the wrong kind (a damaged file, or one another
    /// program wrote into) is an error naming the file and the column, not a crash.
    private static func decode<Value: DatabaseValueConvertible>(_ row: Row, _ name: String, path: String) throws
        -> Value
    {
        do {
            return try row.decode(forColumn: name)
        } catch {
            throw HistoryDatabaseError.notADatabase(
                path: path, reason: "an entry is damaged: its \(name) is not a \(Value.self)")
        }
    }

    /// How many times facts were shown in all (one sighting per time shown).
    public func sightingsStored() async throws(HistoryDatabaseError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sighting") ?? 0 }
    }

    /// Deletes every fact and sighting; the file and its schema stay.
    ///
    /// - Returns: How many facts were deleted.
    @discardableResult
    public func clear() async throws(HistoryDatabaseError) -> Int {
        try await write { db in
            let facts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fact") ?? 0
            try db.execute(sql: "DELETE FROM sighting")
            try db.execute(sql: "DELETE FROM fact")
            return facts
        }
    }

    /// The database file's path.
    public var path: String { url.path }
}
