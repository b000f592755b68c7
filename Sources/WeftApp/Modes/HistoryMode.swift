import FactKit
public import Foundation

/// `weft history` and `weft history clear`: the facts shown so far, and forgetting them.
public enum HistoryMode {
    /// One history entry as a JSON line.
    struct Record: Encodable {
        var fact: String
        var timesSeen: Int
        var lastSeen: Date
        var environment: String
    }

    /// Prints the history, most recent first: a table, or one JSON object per line.
    ///
    /// - Parameters:
    ///   - database: The history file, opened read-only; a missing file is an empty history (it
    ///     is not created).
    ///   - json: One JSON object per line instead of a table.
    ///   - limit: At most this many facts; `nil` for all.
    ///   - write: Where each line goes; standard output by default.
    public static func list(
        database: URL, json: Bool, limit: Int?, write: @Sendable (String) -> Void = StandardStreams.writeOutput
    ) async -> ExitStatus {
        guard FileManager.default.fileExists(atPath: database.path) else {
            if !json { write("no history yet: \(database.path) does not exist; facts are recorded as weft shows them") }
            return .success
        }
        do {
            // Read-only: listing never migrates, marks or otherwise writes the file.
            let history = try HistoryDatabase(readingOnly: database)
            let entries = try await history.entries(limit: limit)
            if json {
                for entry in entries {
                    write(
                        JSONLine.encode(
                            Record(
                                fact: entry.text, timesSeen: entry.timesSeen, lastSeen: entry.lastSeen,
                                environment: entry.environment)))
                }
                return .success
            }
            let total = try await history.factsStored()
            let sightings = try await history.sightingsStored()
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [
                .withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime,
            ]
            formatter.timeZone = .current
            for entry in entries {
                let times = entry.timesSeen == 1 ? "1 time " : "\(entry.timesSeen) times"
                write(
                    "\(formatter.string(from: entry.lastSeen))  \(times.padding(toLength: 9, withPad: " ", startingAt: 0))  \(entry.environment)  \(entry.text)"
                )
            }
            let shown = entries.count < total ? "\(entries.count) of \(total)" : "\(total)"
            write(
                "\(shown) \(total == 1 ? "fact" : "facts"), shown \(sightings) \(sightings == 1 ? "time" : "times") in all · \(database.path)"
            )
            return .success
        } catch {
            StandardStreams.writeError("weft history: \(error)")
            return ExitStatus(failingWith: error)
        }
    }

    /// Deletes every fact from the history after confirmation.
    ///
    /// - Parameters:
    ///   - database: The history file.
    ///   - confirmed: `--yes`: no question asked.
    ///   - ask: Asks the person and returns whether they agreed; `nil` when there is no
    ///     terminal to ask on.
    ///   - write: Where each line goes; standard output by default.
    public static func clear(
        database: URL, confirmed: Bool, ask: ((String) -> Bool)?,
        write: @Sendable (String) -> Void = StandardStreams.writeOutput
    ) async -> ExitStatus {
        guard FileManager.default.fileExists(atPath: database.path) else {
            write("nothing to clear: \(database.path) does not exist")
            return .success
        }
        do {
            let history = try HistoryDatabase(url: database)
            let count = try await history.factsStored()
            if !confirmed {
                guard let ask else {
                    StandardStreams.writeError(
                        "weft history clear: not clearing \(count) facts without confirmation; there is no terminal to ask on, so pass --yes"
                    )
                    return .usageError
                }
                guard ask("Delete all \(count) facts from \(database.path)? [y/N] ") else {
                    write("kept the history")
                    return .success
                }
            }
            let deleted = try await history.clear()
            write("deleted \(deleted) \(deleted == 1 ? "fact" : "facts") from \(database.path)")
            return .success
        } catch {
            StandardStreams.writeError("weft history clear: \(error)")
            return ExitStatus(failingWith: error)
        }
    }

    /// Asks on the terminal: `question`, then a line from standard input; `y` or `yes` agrees.
    /// `nil` when standard input or output is not a terminal.
    public static var terminalPrompt: ((String) -> Bool)? {
        guard StandardStreams.areTerminals else { return nil }
        return { question in
            try? FileHandle.standardOutput.write(contentsOf: Data(question.utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            return answer == "y" || answer == "yes"
        }
    }
}
