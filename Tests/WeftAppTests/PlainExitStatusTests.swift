import Foundation
import Testing
import Weft

@testable import FactKit
@testable import WeftApp
@testable import WeftInitializer

@Suite("Exit status of a plain run")
struct PlainExitStatusTests {
    static let url = URL(string: "http://127.0.0.1:9/fact")!

    @Test("The documented statuses: 0, 1, 2, 130, 143")
    func rawValues() {
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 130, 143])
    }

    @Test(
        "Errors the person fixes in their input exit 2",
        arguments: [
            EnvironmentCatalogError.unknownEnvironment(name: "moon", known: ["embedded"]) as any Error & Sendable,
            EnvironmentCatalogError.invalidJSON(file: "/tmp/bad.json", reason: "not JSON"),
            EnvironmentCatalogError.unreadable(file: "/tmp/missing.json", reason: "no such file"),
            HistoryDatabaseError.notReadable(path: "/tmp/h.sqlite", reason: "permission denied"),
            HistoryDatabaseError.notADatabase(path: "/tmp/h.sqlite", reason: "file is not a database"),
            HistoryDatabaseError.cannotCreateDirectory(path: "/tmp/x/h.sqlite", reason: "read-only"),
            FactRepositoryError.history(.notWritable(path: "/tmp/h.sqlite", reason: "read-only")),
            ResolutionError.factoryFailed(
                ServiceKey(HistoryDatabase.self), path: [],
                underlying: HistoryDatabaseError.notReadable(path: "/tmp/h.sqlite", reason: "permission denied")),
        ])
    func usageErrors(error: any Error & Sendable) {
        #expect(ExitStatus(failingWith: error) == .usageError)
    }

    @Test(
        "Everything else that stops initialization exits 1",
        arguments: [
            FactRepositoryError.service(.httpStatus(url: url, code: 500)) as any Error & Sendable,
            FactServiceError.unreachable(url: url, reason: "connection refused"),
            FactServiceError.timedOut(url: url, after: .seconds(3)),  // an error value
            HistoryDatabaseError.failed(path: "/tmp/h.sqlite", reason: "disk I/O error"),
            FactServerError.cannotListen(port: 0, reason: "no loopback"),
            InitializationStepTimeoutError(stepTitle: "Fetch the first cat fact", timeout: .seconds(90)),
        ])
    func initializationFailures(error: any Error & Sendable) {
        #expect(ExitStatus(failingWith: error) == .initializationFailed)
    }

    @Test("A cancelled run exits 130; SIGINT and SIGTERM map to 130 and 143")
    func interruptions() {
        #expect(ExitStatus(failingWith: CancellationError()) == .interrupted)
        #expect(ExitStatus(.interrupt) == .interrupted)
        #expect(ExitStatus(.terminate) == .terminated)
        #expect(ExitStatus(.interrupt).rawValue == Interruption.interrupt.exitCode)
        #expect(ExitStatus(.terminate).rawValue == Interruption.terminate.exitCode)
    }

    @Test("Real runs: a malformed environments file and an unusable database exit 2")
    @MainActor
    func realUsageErrors() async throws {
        let folder = try TemporaryFolder()
        var options = folder.options()
        options.environmentsFile = try folder.environmentsFile(#"{"environments": [{"name": "x"}]}"#)
        let (malformed, lines) = await runPlain(options, format: .text)
        #expect(malformed == .usageError)
        #expect(lines.output.last?.hasPrefix("[sync] ✗ Load settings") == true)
        #expect(
            lines.errors.last
                == "  hint:  Fix the environments file, or start without --environments to use the bundled one.")

        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: folder.database)
        let (corrupt, corruptLines) = await runPlain(folder.options(), format: .text)
        #expect(corrupt == .degraded, "the fact is shown, unrecorded")
        #expect(corruptLines.output.contains { $0.hasPrefix("fact: ") })
        #expect(corruptLines.errors.contains { $0.hasPrefix("weft: history unavailable") })
        #expect(corruptLines.errors.contains { $0.contains(folder.database.path) })
        #expect(corruptLines.errors.last?.contains("--database PATH") == true)
        #expect(try Data(contentsOf: folder.database) == garbage)
    }
}

@Suite("The manual's exit-status table")
struct ReadmeExitStatusTests {
    /// Using weft, the app's manual: Sources/WeftApp/WeftApp.docc/UsingWeft.md.
    static let manual = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/WeftApp/WeftApp.docc/UsingWeft.md")

    @Test("lists exactly the statuses ExitStatus has, in order, each with its meaning")
    func tableMatchesCode() throws {
        let text = try String(contentsOf: Self.manual, encoding: .utf8)
        let rows = text.split(separator: "\n").compactMap { line -> (Int32, String)? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 4, cells[1].hasPrefix("`"),
                let code = Int32(cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
            else {
                return nil
            }
            return (code, cells[2])
        }
        #expect(rows.map(\.0) == ExitStatus.allCases.map(\.rawValue))
        let meanings = Dictionary(rows, uniquingKeysWith: { first, _ in first })
        #expect(meanings[ExitStatus.success.rawValue]?.contains("main screen") == true)
        #expect(meanings[ExitStatus.initializationFailed.rawValue]?.contains("quitting from the error screen") == true)
        #expect(meanings[ExitStatus.usageError.rawValue]?.contains("unknown `--env`") == true)
        #expect(meanings[ExitStatus.usageError.rawValue]?.contains("`--database`") == true)
        #expect(meanings[ExitStatus.interrupted.rawValue]?.contains("Ctrl-C") == true)
        #expect(meanings[ExitStatus.terminated.rawValue]?.contains("SIGTERM") == true)
    }

    @Test("an unknown --env and a malformed environments file are caught before the full-screen app starts")
    func startupCheck() throws {
        #expect(StartupCheck.problem(with: AppOptions(environmentName: "embedded")) == nil)
        #expect(StartupCheck.problem(with: AppOptions()) == nil)
        guard
            case .unknownEnvironment(let name, let known)? = StartupCheck.problem(
                with: AppOptions(environmentName: "nowhere"))
        else {
            Issue.record("an unknown environment passed the check")
            return
        }
        #expect(name == "nowhere")
        #expect(known.first == "embedded")
        let folder = try TemporaryFolder()
        let file = try folder.environmentsFile(#"{"environments": []}"#)
        #expect(StartupCheck.problem(with: AppOptions(environmentsFile: file)) != nil)
    }
}
