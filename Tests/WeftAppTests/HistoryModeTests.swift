import Foundation
import NIOConcurrencyHelpers
import Testing
import WeftTestSupport

@testable import FactKit
@testable import WeftApp

@Suite("weft history and weft environments")
struct HistoryModeTests {
    final class Lines: Sendable {
        private let storage = NIOLockedValueBox<[String]>([])
        var all: [String] { storage.withLockedValue { $0 } }
        var write: @Sendable (String) -> Void { { line in self.storage.withLockedValue { $0.append(line) } } }
    }

    @Test("list prints each fact and a total; --json one object per fact; a missing file is not created")
    func list() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        let missing = Lines()
        #expect(await HistoryMode.list(database: url, json: false, limit: nil, write: missing.write) == .success)
        #expect(missing.all.first?.contains("no history yet") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))

        let history = try HistoryDatabase(url: url)
        for text in ["Cats purr.", "Cats nap.", "Cats purr."] {
            try await history.record(text, environment: "embedded")
        }
        let table = Lines()
        #expect(await HistoryMode.list(database: url, json: false, limit: nil, write: table.write) == .success)
        #expect(table.all.count == 3)
        #expect(
            table.all[0].contains("2 times") && table.all[0].contains("embedded") && table.all[0].contains("Cats purr.")
        )
        #expect(table.all[2].hasPrefix("2 facts, shown 3 times in all"))
        let json = Lines()
        #expect(await HistoryMode.list(database: url, json: true, limit: 1, write: json.write) == .success)
        #expect(json.all.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.all[0].utf8)) as? [String: Any])
        #expect(object["fact"] as? String == "Cats purr.")
        #expect(object["timesSeen"] as? Int == 2)
        #expect(object["environment"] as? String == "embedded")
        #expect(object["lastSeen"] is String)
    }

    @Test("clear asks first, keeps the history on no, refuses without a terminal, clears with --yes")
    func clear() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        let history = try HistoryDatabase(url: url)
        try await history.record("Cats purr.", environment: "embedded")
        let lines = Lines()
        #expect(
            await HistoryMode.clear(database: url, confirmed: false, ask: { _ in false }, write: lines.write)
                == .success)
        #expect(try await history.factsStored() == 1)
        #expect(await HistoryMode.clear(database: url, confirmed: false, ask: nil, write: lines.write) == .usageError)
        #expect(try await history.factsStored() == 1)
        #expect(
            await HistoryMode.clear(
                database: url, confirmed: false, ask: { question in question.contains("1 facts") }, write: lines.write)
                == .success)
        #expect(try await history.factsStored() == 0)
        try await history.record("Cats nap.", environment: "embedded")
        #expect(await HistoryMode.clear(database: url, confirmed: true, ask: nil, write: lines.write) == .success)
        #expect(try await history.factsStored() == 0)
        #expect(lines.all.last == "deleted 1 fact from \(url.path)")
    }

    @Test("environments --json lists the bundled ones with the user file's, each with its file")
    func environments() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let user = directory.appendingPathComponent("environments.json")
        try Data(EnvironmentsMode.template.utf8).write(to: user)
        let lines = Lines()
        #expect(
            EnvironmentsMode.list(options: AppOptions(userEnvironmentsFile: user), json: true, write: lines.write)
                == .success)
        let objects = try lines.all.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.map { $0["name"] as? String } == ["embedded", "staging", "production", "broken", "local", "flaky"])
        #expect(objects[4]["file"] as? String == user.path)
        #expect(objects[0]["isDefault"] as? Bool == true)
        let broken = Lines()
        #expect(
            EnvironmentsMode.list(
                options: AppOptions(environmentsFile: directory.appendingPathComponent("nope.json")), json: false,
                write: broken.write) == .usageError)
    }
}
