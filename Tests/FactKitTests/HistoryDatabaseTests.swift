import Foundation
import Testing
@testable import FactKit

@Suite("HistoryDatabase on real SQLite files")
struct HistoryDatabaseTests {
    @Test("the default path follows XDG_DATA_HOME, else ~/.local/share")
    func defaultPath() {
        #expect(HistoryDatabase.defaultURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path == "/data/weft/history.sqlite")
        #expect(HistoryDatabase.defaultURL(environment: ["HOME": "/home/a"]).path == "/home/a/.local/share/weft/history.sqlite")
        #expect(HistoryDatabase.defaultURL(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]).path
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
            #expect(try await history.record("Cats purr.", environment: "embedded") == HistoryCounts(timesSeen: 1, factsStored: 1))
            #expect(try await history.record("Cats nap.", environment: "embedded") == HistoryCounts(timesSeen: 1, factsStored: 2))
            #expect(try await history.record("Cats purr.", environment: "staging") == HistoryCounts(timesSeen: 2, factsStored: 2))
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
        guard case .notADatabase(let path, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(path == url.path)
        #expect(error?.description.contains(url.path) == true)
        #expect(try Data(contentsOf: url) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["history.sqlite"], "no journal left behind")
    }

    @Test("a folder path that is a file gives cannotCreateDirectory naming the path")
    func parentIsFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let blocker = directory.appendingPathComponent("weft")
        try Data("not a folder".utf8).write(to: blocker)
        let url = blocker.appendingPathComponent("history.sqlite")
        let error = #expect(throws: HistoryDatabaseError.self) { try HistoryDatabase(url: url) }
        guard case .cannotCreateDirectory(let path, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(path == url.path)
        #expect(try Data(contentsOf: blocker) == Data("not a folder".utf8))
    }

    @Test("a read-only folder gives notWritable naming the path",
          .enabled(if: permissionsAreEnforced, "running as root: permission bits are not enforced, so a 0555 folder is writable"))
    func readOnlyDirectory() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let folder = directory.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let url = folder.appendingPathComponent("history.sqlite")
        let error = #expect(throws: HistoryDatabaseError.self) { try HistoryDatabase(url: url) }
        guard case .notWritable(let path, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(path == url.path)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("an unreadable file gives notReadable naming the path and is left unchanged",
          .enabled(if: permissionsAreEnforced, "running as root: permission bits are not enforced, so a 0000 file is readable"))
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
        guard case .notReadable(let path, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(path == url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(try Data(contentsOf: url) == before)
    }
}
