import Foundation
import Logging
import Testing
import WeftTestSupport

@testable import WeftApp

@Suite("The app's log file")
struct AppLogTests {
    @Test("The log goes to $XDG_STATE_HOME/weft/weft.log, at the level --log-level sets, made on the first line")
    func writesToStateFile() throws {
        let url = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(url) }
        let directory = (url: url, ())
        let settings = try AppSettings(
            flags: .init(logLevel: "debug"),
            environment: [
                "HOME": directory.url.path, "XDG_STATE_HOME": directory.url.appendingPathComponent("state").path,
            ])
        let options = settings.options
        #expect(options.logFile?.path == directory.url.appendingPathComponent("state/weft/weft.log").path)
        #expect(settings.logLevel.layer == SettingsLayer.flag)
        let logger = AppLog.logger(level: options.logLevel, file: options.logFile)
        let file = try #require(options.logFile)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        logger.trace("below the level")
        logger.debug("Resolved FactService", metadata: ["weft.key": "FactService"])
        logger.warning("slow")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix("debug [weft] Resolved FactService weft.key=FactService") == true)
    }

    @Test("Two logs on one file, each written from four threads at once, keep every line whole and none overwritten")
    func concurrentWriters() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let file = directory.appendingPathComponent("state/weft/weft.log")
        // Two sinks open the file apart, as two copies of weft would.
        let sinks = [FileSink(url: file), FileSink(url: file)]
        await withTaskGroup(of: Void.self) { group in
            for (sink, writer) in sinks.flatMap({ sink in (0..<4).map { (sink, $0) } }).enumerated().map({ ($1.0, $0) })
            {
                group.addTask {
                    for line in 0..<250 {
                        sink.write("writer \(writer) line \(line) " + String(repeating: "x", count: 200))
                    }
                }
            }
        }
        let lines = try String(contentsOf: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).dropLast()
        #expect(lines.count == 8 * 250)
        #expect(Set(lines).count == 8 * 250, "no line written twice or torn into another")
        #expect(lines.allSatisfy { $0.hasSuffix(String(repeating: "x", count: 200)) && $0.hasPrefix("writer ") })
    }

    @Test("Without a level or a file the log is silent, never the terminal's; an unwritable file drops lines")
    func silentOrUnwritable() throws {
        #expect(AppLog.logger(level: nil, file: URL(fileURLWithPath: "/tmp/x.log")).handler is SwiftLogNoOpLogHandler)
        let logger = AppLog.logger(level: "info", file: URL(fileURLWithPath: "/dev/null/nested/weft.log"))
        logger.info("dropped")  // /dev/null is not a folder: nothing to write to, and no crash
    }
}
