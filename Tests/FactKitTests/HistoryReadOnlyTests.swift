import Foundation
import GRDB
import Testing
import WeftTestSupport

@testable import FactKit

@Suite("HistoryDatabase(readingOnly:), as weft history opens a file")
struct HistoryReadOnlyTests {
    /// A history with two facts, closed: no -wal or -shm left beside it.
    func makeHistory(in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("history.sqlite")
        do {
            let history = try HistoryDatabase(url: url)
            try await history.record("Cats purr.", environment: "embedded")
            try await history.record("Cats nap.", environment: "staging")
        }
        return url
    }

    @Test("lists what the file holds and leaves it byte for byte")
    func lists() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = try await makeHistory(in: directory)
        let before = try Data(contentsOf: url)
        let history = try HistoryDatabase(readingOnly: url)
        #expect(try await history.entries().map(\.text) == ["Cats nap.", "Cats purr."])
        #expect(try await history.factsStored() == 2)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("writing through it is refused with notWritable naming the file")
    func refusesWrites() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = try await makeHistory(in: directory)
        let history = try HistoryDatabase(readingOnly: url)
        await #expect(throws: HistoryDatabaseError.notWritable(path: url.path, reason: "it was opened read-only")) {
            try await history.record("Cats jump.", environment: "embedded")
        }
        await #expect(throws: HistoryDatabaseError.notWritable(path: url.path, reason: "it was opened read-only")) {
            try await history.clear()
        }
        #expect(try await history.factsStored() == 2)
    }

    @Test("a read-only file is read (opening for writing refuses it)")
    func readOnlyFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = try await makeHistory(in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        #expect(try await HistoryDatabase(readingOnly: url).factsStored() == 2)
    }

    @Test("a missing file, another program's database and an empty SQLite file are refused, untouched")
    func refusals() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let missing = directory.appendingPathComponent("missing.sqlite")
        #expect(throws: HistoryDatabaseError.notReadable(path: missing.path, reason: "no such file")) {
            try HistoryDatabase(readingOnly: missing)
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        let foreign = directory.appendingPathComponent("invoices.sqlite")
        try await DatabaseQueue(path: foreign.path).write { db in
            try db.execute(sql: "CREATE TABLE invoice (id INTEGER PRIMARY KEY, total REAL)")
        }
        let foreignBytes = try Data(contentsOf: foreign)
        #expect(
            throws: HistoryDatabaseError.notAHistoryDatabase(path: foreign.path, tables: ["invoice"], tableCount: 1)
        ) {
            try HistoryDatabase(readingOnly: foreign)
        }
        #expect(try Data(contentsOf: foreign) == foreignBytes)

        let empty = directory.appendingPathComponent("empty.sqlite")
        try await DatabaseQueue(path: empty.path).write { db in try db.execute(sql: "PRAGMA user_version = 0") }
        #expect(
            throws: HistoryDatabaseError.notADatabase(path: empty.path, reason: "an SQLite database with no tables yet")
        ) {
            try HistoryDatabase(readingOnly: empty)
        }
    }

    @Test("an entry whose date another program overwrote is an error naming the file and column, not a crash")
    func damagedEntry() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = try await makeHistory(in: directory)
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE sighting SET fetchedAt = '2026-11-26 \u{1C}4:52:47.000'")
        }
        let history = try HistoryDatabase(readingOnly: url)
        await #expect(
            throws: HistoryDatabaseError.notADatabase(
                path: url.path, reason: "an entry is damaged: its lastSeen is not a Date")
        ) {
            try await history.entries()
        }
    }
}
