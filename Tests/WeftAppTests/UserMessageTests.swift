import Foundation
import GRDB
import Testing

@testable import FactKit
@testable import Weft
@testable import WeftApp

/// The words a person reads when something is wrong, and the status weft exits with: one row
/// per mistake, run through the real plain session (real files, real SQLite, real HTTP).
@Suite("Messages a person can act on", .timeLimit(.minutes(2)))
struct UserMessageTests {
    /// What a row sets up in its folder: the options to run with.
    typealias Setup = @Sendable (TemporaryFolderURL) throws -> AppOptions

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var setup: Setup
        var status: WeftApp.ExitStatus
        /// Every one of these appears in what weft writes to standard error.
        var says: [String]
        var testDescription: String { name }
    }

    /// One environment in a file, with `fields` spliced into its object.
    static func environments(_ fields: String, source: String = #""embedded""#) -> String {
        #"{"environments": [{"name": "a", "description": "d", "source": \#(source)\#(fields)}]}"#
    }

    static func file(_ text: String) -> Setup {
        { folder in
            AppOptions(
                environmentsFile: try folder.write(Data(text.utf8), as: "environments.json"),
                databaseURL: folder.database)
        }
    }

    static func bytes(_ data: Data) -> Setup {
        { folder in
            AppOptions(environmentsFile: try folder.write(data, as: "environments.json"), databaseURL: folder.database)
        }
    }

    static func environmentsPath(_ path: @escaping @Sendable (TemporaryFolderURL) throws -> String) -> Setup {
        { folder in AppOptions(environmentsFile: URL(fileURLWithPath: try path(folder)), databaseURL: folder.database) }
    }

    static func database(_ path: @escaping @Sendable (TemporaryFolderURL) throws -> String) -> Setup {
        { folder in AppOptions(databaseURL: URL(fileURLWithPath: try path(folder))) }
    }

    static let rows: [Row] = [
        // The environments file itself.
        Row(
            name: "--environments DIR", setup: environmentsPath { $0.url.path }, status: .usageError,
            says: ["is a directory"]),
        Row(
            name: "--environments /dev/null", setup: environmentsPath { _ in "/dev/null" }, status: .usageError,
            says: ["/dev/null is empty"]),
        Row(name: "an empty file", setup: file(""), status: .usageError, says: ["environments.json is empty"]),
        Row(
            name: "--environments /dev/zero", setup: environmentsPath { _ in "/dev/zero" }, status: .usageError,
            says: ["/dev/zero is not a regular file"]),
        Row(
            name: "--environments FIFO",
            setup: environmentsPath { folder in
                let path = folder.url.appendingPathComponent("fifo").path
                guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
                return path
            }, status: .usageError, says: ["fifo is not a regular file"]),
        // JSON a lenient reader would misreport.
        Row(
            name: "invalid UTF-8",
            setup: bytes(Data(#"{"environments": ["#.utf8) + Data([0x0A, 0x20, 0x20, 0x22, 0xFF, 0x22, 0x5D, 0x7D])),
            status: .usageError, says: ["not valid JSON (invalid UTF-8 at line 2, column 4)"]),
        Row(
            name: "a lone surrogate",
            setup: file(environments(#", "timeoutSeconds": 3"#).replacingOccurrences(of: #""d""#, with: #""\uD800""#)),
            status: .usageError, says: [#"a lone surrogate \uD800 (half of a character) at line 1"#]),
        Row(
            name: "1e309", setup: file(environments(#", "timeoutSeconds": 1e309"#)), status: .usageError,
            says: ["the number 1e309 is too large at line 1"]),
        Row(
            name: "a 400-digit number",
            setup: file(environments(#", "timeoutSeconds": "# + String(repeating: "9", count: 400))),
            status: .usageError, says: ["is too large at line 1", "…"]),
        Row(
            name: "03", setup: file(environments(#", "timeoutSeconds": 03"#)), status: .usageError,
            says: ["a number with a leading zero (write 3, not 03)"]),
        Row(
            name: "a key given twice",
            setup: file(
                #"{"environments": [{"name": "a", "description": "d",\#n "name": "b", "source": "embedded"}]}"#),
            status: .usageError, says: [#"the key "name" appears twice in one object (first on line 1) at line 2"#]),
        // Values.
        Row(
            name: "timeoutSeconds 1e-9", setup: file(environments(#", "timeoutSeconds": 1e-9"#)), status: .usageError,
            says: ["environments[0].timeoutSeconds: expected a number of seconds from 0.001 (1 ms) to 600, got 1e-09"]),
        Row(
            name: "a 200 KB name",
            setup: file(
                #"{"environments": [{"name": "\#(String(repeating: "x ", count: 100_000))", "description": "d", "source": "embedded"}]}"#
            ),
            status: .usageError, says: [#"got "x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x…""#]),
        Row(
            name: "port 99999", setup: file(environments("", source: #""http://127.0.0.1:99999""#)),
            status: .usageError,
            says: ["the port 99999 is out of range (1 to 65535)"]),
        Row(
            name: "a broken IPv6 literal", setup: file(environments("", source: #""http://[::zz]:8089""#)),
            status: .usageError,
            says: ["environments[0].source"]),
        Row(
            name: "an IPv6 literal", setup: file(environments("", source: #""http://[::1]:9""#)),
            status: .initializationFailed,
            says: ["cannot reach http://[::1]:9/fact (connection refused)"]),
        Row(
            name: "an upper-case scheme", setup: file(environments("", source: #""HTTP://127.0.0.1:9""#)),
            status: .initializationFailed,
            says: ["cannot reach http://127.0.0.1:9/fact (connection refused)"]),
        Row(
            name: "ESC in a name",
            setup: file(#"{"environments": [\#n{"name": "a\u001b[31m", "description": "d", "source": "embedded"}]}"#),
            status: .usageError,
            says: ["environments.json:2: environments[0].name: holds the invisible character U+001B"]),
        Row(
            name: "U+202E in a description",
            setup: file(#"{"environments": [{"name": "a", "description": "\u202Ed", "source": "embedded"}]}"#),
            status: .usageError, says: ["environments[0].description: holds the invisible character U+202E"]),
        Row(
            name: "NUL in a name",
            setup: file(#"{"environments": [{"name": "a\u0000", "description": "d", "source": "embedded"}]}"#),
            status: .usageError, says: ["holds the invisible character U+0000"]),
        // The history database.
        Row(
            name: "--database DIR", setup: database { $0.url.path }, status: .degraded,
            says: ["is a directory, not a file", "Give --database the path of a file"]),
        Row(
            name: "--database /dev/zero", setup: database { _ in "/dev/zero" }, status: .degraded,
            says: ["/dev/zero is not a regular file"]),
        Row(
            name: "--database another program's file",
            setup: database { folder in
                let path = folder.url.appendingPathComponent("other.sqlite").path
                try folder.write(try Data(contentsOf: Self.foreignDatabase), as: "other.sqlite")
                return path
            }, status: .degraded,
            says: ["another program's SQLite database, not a weft history (its tables: accounts, notes)"]),
    ]

    /// A small SQLite file of another program (made with GRDB, not with weft's code), once.
    static let foreignDatabase: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "weft-foreign-\(UUID().uuidString).sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT)")
                try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
            }
            try queue.close()
        } catch {
            Issue.record("could not make the foreign database: \(error)")
        }
        return url
    }()

    @Test("each mistake gets its words and its exit status", arguments: rows)
    @MainActor
    func row(_ row: Row) async throws {
        let folder = try TemporaryFolder()
        let options = try row.setup(TemporaryFolderURL(url: folder.url))
        let (status, lines) = await runPlain(options, format: .text)
        let errors = lines.errors.joined(separator: "\n")
        #expect(status == row.status, "\(errors)")
        for words in row.says {
            #expect(errors.contains(words), "\(errors)")
        }
        #expect(errors.count < 2_000, "a message quotes at most 60 characters of what it found")
    }

    @Test("HTTP 404 says the URL has no fact endpoint; 5xx keeps saying the server is failing")
    @MainActor
    func httpStatuses() async throws {
        let server = try FactServer.bundled()
        let base = try await server.start()
        let folder = try TemporaryFolder()
        let wrongPath = try folder.environmentsFile(Self.environments("", source: "\"\(base.absoluteString)/nope\""))
        let (status, lines) = await runPlain(
            AppOptions(environmentsFile: wrongPath, databaseURL: folder.database), format: .text)
        await server.stop()
        #expect(status == .initializationFailed)
        let errors = lines.errors.joined(separator: "\n")
        #expect(errors.contains("the URL has no fact endpoint, check the environment's source"), "\(errors)")
        #expect(errors.contains("The URL has no fact endpoint: check `source` in the environments file"), "\(errors)")

        let broken = AppOptions(environmentName: "broken", databaseURL: folder.database)
        let (brokenStatus, brokenLines) = await runPlain(broken, format: .text)
        #expect(brokenStatus == .initializationFailed)
        #expect(brokenLines.errors.joined(separator: "\n").contains("the server is failing, try again later"))
    }

    @Test("an unhealthy service is named once, with its reason")
    func unhealthyOnce() {
        let report = HealthReport(statuses: [ServiceKey(HistoryDatabase.self): .unhealthy(reason: "the disk is gone")])
        #expect(UnhealthyServices(report: report).description == "Unhealthy: HistoryDatabase: the disk is gone")
    }
}

/// A temporary folder's URL, passed to a row's set-up, with a helper to write files in it.
struct TemporaryFolderURL: Sendable {
    let url: URL
    var database: URL { url.appendingPathComponent("history.sqlite") }

    @discardableResult
    func write(_ data: Data, as name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }
}
