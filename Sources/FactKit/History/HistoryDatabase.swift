import Dispatch
public import Foundation
import GRDB

/// The SQLite history of every fact shown: text, environment and time.
///
/// Lives at ``defaultURL(environment:)`` (`$XDG_DATA_HOME/weft/history.sqlite`) unless a path
/// is given. Opening creates the parent folder if needed and applies versioned migrations.
///
/// The file is shared safely: it is opened in WAL mode through a GRDB `DatabasePool`, with a
/// busy timeout, so several weft processes can record into one history at once. And weft
/// writes only to its own files: a history carries weft's SQLite application id, and an
/// existing file without it is refused untouched unless it is empty or has exactly the schema
/// of a history from before the id (which is then marked). A path that is a directory or not
/// a regular file, a file that is not a database, or one that cannot be read or written is
/// reported as a ``HistoryDatabaseError`` naming it, and is never deleted, truncated or
/// overwritten.
///
/// ```swift
/// let history = try HistoryDatabase(url: HistoryDatabase.defaultURL())
/// let counts = try await history.record("Cats sleep a lot.", environment: "embedded")
/// print(counts.timesSeen, counts.factsStored)
/// ```
public final class HistoryDatabase: Sendable {
    /// How long a connection waits for another process's write before giving up.
    static let busyTimeout: TimeInterval = 10

    /// The database file.
    let url: URL
    /// Reads go here: the pool, or the read-only connection of ``init(readingOnly:)``.
    private let reader: any DatabaseReader
    /// Writes go here; `nil` for a history opened read-only.
    private let writer: (any DatabaseWriter)?

    /// The default file: `$XDG_DATA_HOME/weft/history.sqlite`, or
    /// `~/.local/share/weft/history.sqlite` when `XDG_DATA_HOME` is unset, empty or relative.
    ///
    /// - Parameter environment: The process environment to read `XDG_DATA_HOME` and `HOME` from.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home =
                environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                .map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            dataHome = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome.appendingPathComponent("weft/history.sqlite", isDirectory: false)
    }

    /// Opens the history at `url` like ``init(url:)``, on a thread of its own: opening can
    /// wait for another process's write (up to the busy timeout) and for the disk, and that
    /// wait must not hold one of Swift concurrency's few threads.
    public static func open(url: URL) async throws(HistoryDatabaseError) -> HistoryDatabase {
        // A serial queue of its own runs on a thread Dispatch creates for it, outside the
        // cooperative pool.
        let queue = DispatchQueue(label: "weft.history.open")
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<HistoryDatabase, HistoryDatabaseError>, Never>) in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(HistoryDatabaseError) in try HistoryDatabase(url: url) })
            }
        }
        return try result.get()
    }

    /// Opens (creating if needed) and migrates the history at `url`, blocking the calling
    /// thread while it does; from async code use ``open(url:)``.
    ///
    /// An existing file is inspected through a read-only connection first; only a file that
    /// is weft's (or empty) is then opened for writing.
    ///
    /// - Throws: ``HistoryDatabaseError`` naming the file; the file is left as it was.
    public init(url: URL) throws(HistoryDatabaseError) {
        let path = url.path
        self.url = url
        try Self.checkFile(at: path)
        try Self.prepareDirectory(for: url)
        do {
            let pool = try Self.retryingWhileBusy { () throws -> DatabasePool in
                try Self.refuseForeignFile(at: path)
                var configuration = Configuration()
                configuration.busyMode = .timeout(Self.busyTimeout)
                let pool = try DatabasePool(path: path, configuration: configuration)
                try pool.writeWithoutTransaction { db in try HistorySchema.prepare(db, path: path) }
                return pool
            }
            reader = pool
            writer = pool
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Opens an existing history for reading only, as `weft history` does: nothing is written
    /// to the file, not its journal mode nor a migration, so a damaged, foreign or newer file
    /// is refused by an error naming it and stays byte for byte as it was. Writing through a
    /// history opened so fails with ``HistoryDatabaseError/notWritable(path:reason:)``.
    ///
    /// - Throws: ``HistoryDatabaseError``: the file is missing, unreadable, not an SQLite
    ///   database, another program's, or written by a newer weft.
    public init(readingOnly url: URL) throws(HistoryDatabaseError) {
        let path = url.path
        self.url = url
        try Self.checkFile(at: path, forWriting: false)
        guard FileManager.default.fileExists(atPath: path) else {
            throw .notReadable(path: path, reason: "no such file")
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(Self.busyTimeout)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in try HistorySchema.checkReadable(db, path: path) }
            reader = queue
            writer = nil
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// Runs `open` again while it fails with `SQLITE_BUSY`, for up to ``busyTimeout``.
    ///
    /// The busy timeout covers waiting for a lock, but not every contention of processes opening
    /// one new file at once: when two connections would wait for each other (both switching a
    /// fresh file to WAL, say), SQLite fails one of them at once rather than deadlock. Opening
    /// again a few milliseconds later then succeeds.
    private static func retryingWhileBusy<Value>(_ open: () throws -> Value) throws -> Value {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        var pause = Duration.milliseconds(2)
        while true {
            do {
                return try open()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline
            {
                // A blocking pause: opening blocks its thread by design (see `open(url:)`).
                Thread.sleep(
                    forTimeInterval: Double(pause.components.attoseconds) / 1e18 * Double.random(in: 0.5...1.5))
                pause = min(pause * 2, .milliseconds(100))
            }
        }
    }

    /// Records that a fact was shown, returning how often it was seen and how many facts are stored.
    ///
    /// One immediate transaction: another process recording at the same moment waits its
    /// turn (up to the busy timeout) instead of failing.
    ///
    /// - Parameters:
    ///   - text: The fact.
    ///   - environment: The name of the environment it came from.
    ///   - fetchedAt: When it was fetched.
    @discardableResult
    func record(_ text: String, environment: String, fetchedAt: Date = Date()) async throws(HistoryDatabaseError)
        -> HistoryCounts
    {
        do {
            return try await requireWriter().writeWithoutTransaction { db in
                var counts = HistoryCounts(timesSeen: 0, factsStored: 0)
                try db.inTransaction(.immediate) {
                    try db.execute(
                        sql: "INSERT INTO fact (text, firstSeenAt) VALUES (?, ?) ON CONFLICT(text) DO NOTHING",
                        arguments: [text, fetchedAt])
                    let factID =
                        try Int64.fetchOne(db, sql: "SELECT id FROM fact WHERE text = ?", arguments: [text]) ?? 0
                    try db.execute(
                        sql: "INSERT INTO sighting (factId, environment, fetchedAt) VALUES (?, ?, ?)",
                        arguments: [factID, environment, fetchedAt])
                    counts = HistoryCounts(
                        timesSeen: try Int.fetchOne(
                            db, sql: "SELECT COUNT(*) FROM sighting WHERE factId = ?", arguments: [factID]) ?? 0,
                        factsStored: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fact") ?? 0)
                    return .commit
                }
                return counts
            }
        } catch {
            throw Self.map(error, path: url.path)
        }
    }

    /// How many different facts the history holds.
    public func factsStored() async throws(HistoryDatabaseError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fact") ?? 0 }
    }

    /// How many times this fact has been shown.
    func timesSeen(_ text: String) async throws(HistoryDatabaseError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sighting JOIN fact ON fact.id = sighting.factId WHERE fact.text = ?",
                arguments: [text]) ?? 0
        }
    }

    /// The identifiers of the migrations applied to the file, oldest first.
    func appliedMigrations() async throws(HistoryDatabaseError) -> [String] {
        try await read { db in try HistorySchema.appliedMigrations(db) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(HistoryDatabaseError) -> T {
        do {
            return try await reader.read(body)
        } catch {
            throw Self.map(error, path: url.path)
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(HistoryDatabaseError) -> T
    {
        do {
            return try await requireWriter().write(body)
        } catch {
            throw Self.map(error, path: url.path)
        }
    }

    /// How many sightings the history holds: one per fact shown.
    func sightings() async throws(HistoryDatabaseError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sighting") ?? 0 }
    }

    /// Where writes go; a history opened read-only refuses them.
    private func requireWriter() throws(HistoryDatabaseError) -> any DatabaseWriter {
        guard let writer else { throw .notWritable(path: url.path, reason: "it was opened read-only") }
        return writer
    }

    /// Refuses a path that names a directory or something other than a regular file; a
    /// missing file is fine (it will be created).
    private static func checkFile(at path: String, forWriting: Bool = true) throws(HistoryDatabaseError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .isDirectory(path: path)
        default: throw .notARegularFile(path: path)
        }
        let manager = FileManager.default
        guard manager.isReadableFile(atPath: path) else {
            throw .notReadable(path: path, reason: "permission denied")
        }
        guard !forWriting || manager.isWritableFile(atPath: path) else {
            throw .notWritable(path: path, reason: "the file is read-only")
        }
    }

    /// Looks at an existing, non-empty file through a read-only connection and refuses it
    /// unless it is weft's, an unmarked weft history, or an SQLite database with nothing in
    /// it: nothing is written to a file that is refused, not even its journal mode.
    private static func refuseForeignFile(at path: String) throws {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 else {
            return
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let ownership = try DatabaseQueue(path: path, configuration: configuration).read(HistorySchema.ownership(of:))
        if case .foreign(let tables, let count) = ownership {
            throw HistoryDatabaseError.notAHistoryDatabase(path: path, tables: tables, tableCount: count)
        }
    }

    private static func prepareDirectory(for url: URL) throws(HistoryDatabaseError) {
        let directory = url.deletingLastPathComponent()
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .cannotCreateDirectory(path: url.path, reason: "\(directory.path) is a file, not a folder")
            }
        } else {
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreateDirectory(path: url.path, reason: (error as NSError).localizedDescription)
            }
        }
        guard manager.isWritableFile(atPath: directory.path) else {
            throw .notWritable(path: url.path, reason: "the folder \(directory.path) is read-only")
        }
    }

    private static func map(_ error: any Error, path: String) -> HistoryDatabaseError {
        if let error = error as? HistoryDatabaseError { return error }
        guard let error = error as? DatabaseError else {
            return .failed(path: path, reason: "\(error)")
        }
        let reason = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .notADatabase(path: path, reason: reason)
        case .SQLITE_READONLY:
            return .notWritable(path: path, reason: reason)
        case .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_CANTOPEN:
            return .notReadable(path: path, reason: reason)
        default:
            return .failed(path: path, reason: reason)
        }
    }
}
