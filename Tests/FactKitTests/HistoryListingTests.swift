import Foundation
import Testing
import WeftTestSupport

@testable import FactKit

@Suite("HistoryDatabase lists and clears its facts")
struct HistoryListingTests {
    @Test("entries: one per fact, most recently shown first, with times seen and the last environment")
    func entries() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let history = try HistoryDatabase(url: directory.appendingPathComponent("history.sqlite"))
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try await history.record("Cats purr.", environment: "embedded", fetchedAt: start)
        try await history.record("Cats nap.", environment: "embedded", fetchedAt: start + 1)
        try await history.record("Cats purr.", environment: "staging", fetchedAt: start + 2)
        let entries = try await history.entries()
        #expect(
            entries == [
                HistoryEntry(text: "Cats purr.", timesSeen: 2, lastSeen: start + 2, environment: "staging"),
                HistoryEntry(text: "Cats nap.", timesSeen: 1, lastSeen: start + 1, environment: "embedded"),
            ])
        #expect(try await history.entries(limit: 1).map(\.text) == ["Cats purr."])
        #expect(try await history.sightingsStored() == 3)
    }

    @Test("clear deletes every fact and sighting; the file stays usable")
    func clear() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let url = directory.appendingPathComponent("history.sqlite")
        let history = try HistoryDatabase(url: url)
        try await history.record("Cats purr.", environment: "embedded")
        try await history.record("Cats nap.", environment: "embedded")
        #expect(try await history.clear() == 2)
        #expect(try await history.entries().isEmpty)
        #expect(try await history.sightingsStored() == 0)
        #expect(
            try await history.record("Cats purr.", environment: "embedded")
                == HistoryCounts(timesSeen: 1, factsStored: 1))
        #expect(FileManager.default.fileExists(atPath: url.path))
    }
}
