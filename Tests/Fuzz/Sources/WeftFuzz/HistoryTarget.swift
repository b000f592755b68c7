import FactKit
import Foundation

/// The history database as `weft history` reads it: the input is written as a history file
/// (the seeds are real ones, which the fuzzer mutates byte by byte), opened read-only and
/// listed. It lists, or fails with a `HistoryDatabaseError` naming the file, and the file is
/// byte for byte what it was.
enum HistoryTarget {
    static let name = "history"
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "weft-fuzz-history-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    static let run: FuzzTarget = { bytes in
        let url = folder.appendingPathComponent("history.sqlite")
        let original = Data(bytes)
        guard FileManager.default.createFile(atPath: url.path, contents: original) else {
            fuzzFailure("cannot write \(url.path)")
        }
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(url.path + suffix) }
        }
        let outcome = blocking { () -> Result<Int, HistoryDatabaseError> in
            do {
                let history = try HistoryDatabase(readingOnly: url)
                let entries = try await history.entries(limit: 50)
                let facts = try await history.factsStored()
                _ = try await history.sightingsStored()
                return .success(min(entries.count, facts))
            } catch let error as HistoryDatabaseError {
                return .failure(error)
            } catch {
                fuzzFailure("listing failed other than as a HistoryDatabaseError: \(error)")
            }
        }
        if case .failure(let error) = outcome {
            require(error.description.contains(url.path), "an error that does not name the file: \(error)")
        }
        require(contents(of: url) == original, "a read-only listing changed the file")
    }

    /// The file's bytes. (Not `FileManager.contents(atPath:)`, which leaks 4 KiB for an empty
    /// file in this Foundation.)
    static func contents(of url: URL) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.readToEnd()) ?? Data()
    }
}
