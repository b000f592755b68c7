import Dispatch
import Foundation
import GRDB
import Testing
import WeftTestSupport

@testable import FactKit

@Suite("HistoryDatabase on real SQLite files")
struct HistoryDatabaseTests {
    @Test("the default path follows XDG_DATA_HOME, else ~/.local/share")
    func defaultPath() {
        #expect(
            HistoryDatabase.defaultURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path
                == "/data/weft/history.sqlite")
        #expect(
            HistoryDatabase.defaultURL(environment: ["HOME": "/home/a"]).path
                == "/home/a/.local/share/weft/history.sqlite")
        #expect(
            HistoryDatabase.defaultURL(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]).path
                == "/home/a/.local/share/weft/history.sqlite")
    }

    @Test("opening creates missing folders and applies the migrations")
    func createsAndMigrates() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("a/b/history.sqlite")
        let history = try HistoryDatabase(url: url)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(try await history.appliedMigrations() == ["v1: facts and sightings"])
        #expect(try await history.factsStored() == 0)
    }

    @Test("recording counts sightings per fact and distinct facts, and survives reopening")
    func records() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        do {
            let history = try HistoryDatabase(url: url)
            #expect(
                try await history.record("Cats purr.", environment: "embedded")
                    == HistoryCounts(timesSeen: 1, factsStored: 1))
            #expect(
                try await history.record("Cats nap.", environment: "embedded")
                    == HistoryCounts(timesSeen: 1, factsStored: 2))
            #expect(
                try await history.record("Cats purr.", environment: "staging")
                    == HistoryCounts(timesSeen: 2, factsStored: 2))
        }
        let reopened = try HistoryDatabase(url: url)
        #expect(try await reopened.timesSeen("Cats purr.") == 2)
        #expect(try await reopened.timesSeen("Cats nap.") == 1)
        #expect(try await reopened.timesSeen("Dogs bark.") == 0)
        #expect(try await reopened.factsStored() == 2)
        #expect(try await reopened.appliedMigrations() == ["v1: facts and sightings"])
    }

    @Test("a corrupt file gives notADatabase naming the path and is left byte for byte")
    func corruptFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: url)
        let error = #expect(throws: HistoryDatabaseError.self) { try HistoryDatabase(url: url) }
        guard case .notADatabase(let path, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(error?.description.contains(url.path) == true)
        #expect(try Data(contentsOf: url) == garbage)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["history.sqlite"],
            "no journal left behind")
    }

    @Test("a folder path that is a file gives cannotCreateDirectory naming the path")
    func parentIsFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let blocker = directory.appendingPathComponent("weft")
        try Data("not a folder".utf8).write(to: blocker)
        let url = blocker.appendingPathComponent("history.sqlite")
        let error = #expect(throws: HistoryDatabaseError.self) { try HistoryDatabase(url: url) }
        guard case .cannotCreateDirectory(let path, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(try Data(contentsOf: blocker) == Data("not a folder".utf8))
    }

    @Test(
        "a read-only folder gives notWritable naming the path",
        .enabled(
            if: permissionsAreEnforced,
            "running as root: permission bits are not enforced, so a 0555 folder is writable"))
    func readOnlyDirectory() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let folder = directory.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let url = folder.appendingPathComponent("history.sqlite")
        let error = #expect(throws: HistoryDatabaseError.self) { try HistoryDatabase(url: url) }
        guard case .notWritable(let path, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test(
        "an unreadable file gives notReadable naming the path and is left unchanged",
        .enabled(
            if: permissionsAreEnforced, "running as root: permission bits are not enforced, so a 0000 file is readable")
    )
    func unreadableFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        do {
            try await HistoryDatabase(url: url).record("Cats purr.", environment: "embedded")
        }
        let before = try Data(contentsOf: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
        let error = #expect(throws: HistoryDatabaseError.self) { try HistoryDatabase(url: url) }
        guard case .notReadable(let path, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(try Data(contentsOf: url) == before)
    }
}

@Suite("HistoryDatabase refuses files that are not weft's and shares its own")
struct HistoryDatabaseOwnershipTests {
    /// Writes another program's SQLite database with `tables` (and an application id) and returns its bytes.
    private func foreignDatabase(at url: URL, tables: [String], applicationID: Int32 = 0) throws -> Data {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            for table in tables { try db.execute(sql: "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, value TEXT)") }
            if applicationID != 0 { try db.execute(sql: "PRAGMA application_id = \(applicationID)") }
        }
        try queue.close()
        return try Data(contentsOf: url)
    }

    private func expectRefused(_ url: URL, bytes: Data, tables: [String], count: Int) throws {
        let error = #expect(throws: HistoryDatabaseError.self) { try HistoryDatabase(url: url) }
        #expect(error == .notAHistoryDatabase(path: url.path, tables: tables, tableCount: count))
        #expect(error?.description.contains(url.path) == true)
        #expect(error?.description.contains("not a weft history") == true)
        #expect(try Data(contentsOf: url) == bytes, "not one byte changed")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(siblings == [url.lastPathComponent], "no -wal, -shm or journal file made")
    }

    @Test("another program's database is refused before any write, naming a few of its tables")
    func foreignTables() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("other.sqlite")
        let tables = ["accounts", "invoices", "ledger", "notes", "payments", "tags", "users"]
        let bytes = try foreignDatabase(at: url, tables: tables)
        try expectRefused(url, bytes: bytes, tables: Array(tables.prefix(5)), count: 7)
        #expect(
            HistoryDatabaseError.notAHistoryDatabase(path: url.path, tables: Array(tables.prefix(5)), tableCount: 7)
                .description.contains("its tables: accounts, invoices, ledger, notes, payments and 2 more"))
    }

    @Test("a foreign database that happens to have a fact table is refused the same way")
    func foreignWithFactTable() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("other.sqlite")
        let bytes = try foreignDatabase(at: url, tables: ["fact"])
        try expectRefused(url, bytes: bytes, tables: ["fact"], count: 1)
    }

    @Test("an empty database marked with another program's application id is refused")
    func foreignApplicationID() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("other.sqlite")
        let bytes = try foreignDatabase(at: url, tables: [], applicationID: 42)
        try expectRefused(url, bytes: bytes, tables: [], count: 0)
    }

    @Test("a new history is marked with weft's application id and kept in WAL mode")
    func newFileIsMarked() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        _ = try HistoryDatabase(url: url)
        let queue = try DatabaseQueue(path: url.path)
        #expect(
            try await queue.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == HistorySchema.applicationID
        )
        #expect(try await queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test("an empty file and an SQLite file without tables become weft's")
    func emptyFilesAreClaimed() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let empty = directory.appendingPathComponent("empty.sqlite")
        try Data().write(to: empty)
        #expect(try await HistoryDatabase(url: empty).record("Cats purr.", environment: "embedded").factsStored == 1)
        let noTables = directory.appendingPathComponent("no-tables.sqlite")
        _ = try foreignDatabase(at: noTables, tables: [])
        #expect(try await HistoryDatabase(url: noTables).record("Cats purr.", environment: "embedded").factsStored == 1)
    }

    @Test("a history written before the application id existed is accepted, kept and marked")
    func unmarkedWeftHistory() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        // The v1 file exactly as weft wrote it with GRDB's migrator and a DatabaseQueue.
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: facts and sightings") { db in
            try db.create(table: "fact") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("text", .text).notNull().unique(onConflict: .abort)
                table.column("firstSeenAt", .datetime).notNull()
            }
            try db.create(table: "sighting") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("fact", onDelete: .cascade).notNull()
                table.column("environment", .text).notNull()
                table.column("fetchedAt", .datetime).notNull()
            }
        }
        let queue = try DatabaseQueue(path: url.path)
        try migrator.migrate(queue)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO fact (text, firstSeenAt) VALUES ('Cats purr.', '2026-01-01 00:00:00')")
            try db.execute(
                sql:
                    "INSERT INTO sighting (factId, environment, fetchedAt) VALUES (1, 'embedded', '2026-01-01 00:00:00')"
            )
        }
        try queue.close()

        let history = try HistoryDatabase(url: url)
        #expect(try await history.timesSeen("Cats purr.") == 1)
        #expect(try await history.record("Cats purr.", environment: "staging").timesSeen == 2)
        #expect(try await history.appliedMigrations() == ["v1: facts and sightings"])
        let check = try DatabaseQueue(path: url.path)
        #expect(
            try await check.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == HistorySchema.applicationID
        )
    }

    @Test("an unmarked file with weft's table names but other columns is another program's")
    func lookalikeSchema() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("other.sqlite")
        let bytes = try foreignDatabase(at: url, tables: ["fact", "grdb_migrations", "sighting"])
        try expectRefused(url, bytes: bytes, tables: ["fact", "grdb_migrations", "sighting"], count: 3)
    }

    @Test("a directory, a device and a FIFO are refused by what they are")
    func notFiles() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        #expect(throws: HistoryDatabaseError.isDirectory(path: directory.path)) { try HistoryDatabase(url: directory) }
        #expect(throws: HistoryDatabaseError.notARegularFile(path: "/dev/zero")) {
            try HistoryDatabase(url: URL(fileURLWithPath: "/dev/zero"))
        }
        let fifo = directory.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        #expect(throws: HistoryDatabaseError.notARegularFile(path: fifo.path)) { try HistoryDatabase(url: fifo) }
    }

    @Test("20 connections opening and recording into one new history at once all succeed and all count")
    func concurrentOpeners() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        // Each opener is its own pool, opened on a thread of its own: its own connections,
        // blocking in SQLite's busy handler as another process would, without holding Swift
        // concurrency's few threads. Then all 20 record at once.
        let opened = await withCheckedContinuation {
            (continuation: CheckedContinuation<[Result<HistoryDatabase, HistoryDatabaseError>], Never>) in
            let lock = NSLock()
            let group = DispatchGroup()
            // Only touched under `lock`.
            nonisolated(unsafe) var opened: [Result<HistoryDatabase, HistoryDatabaseError>] = []
            for _ in 0..<20 {
                group.enter()
                Thread.detachNewThread {
                    let result = Result { () throws(HistoryDatabaseError) -> HistoryDatabase in
                        try HistoryDatabase(url: url)
                    }
                    lock.withLock { opened.append(result) }
                    group.leave()
                }
            }
            group.notify(queue: .global()) { continuation.resume(returning: lock.withLock { opened }) }
        }
        let databases = opened.compactMap { try? $0.get() }
        let openFailures = opened.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(openFailures.isEmpty, "\(openFailures)")
        let results = await withTaskGroup(of: Result<HistoryCounts, HistoryDatabaseError>.self) { group in
            for (index, history) in databases.enumerated() {
                group.addTask {
                    do throws(HistoryDatabaseError) {
                        return .success(try await history.record("Fact \(index % 3)", environment: "embedded"))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<HistoryCounts, HistoryDatabaseError>] = []
            for await result in group { results.append(result) }
            return results
        }
        let failures = results.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(failures.isEmpty, "\(failures)")
        let history = try HistoryDatabase(url: url)
        #expect(try await history.sightings() == 20)
        #expect(try await history.factsStored() == 3)
        #expect(try await history.appliedMigrations() == ["v1: facts and sightings"])
    }
}
