import Foundation
import Logging
import Testing
@testable import WeftApp
import WeftTestSupport

@Suite("The app's log file")
struct AppLogTests {
    @Test("The log goes to $XDG_STATE_HOME/weft/weft.log, at the level --log-level sets, made on the first line")
    func writesToStateFile() throws {
        let url = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(url) }
        let directory = (url: url, ())
        let settings = try AppSettings(
            flags: .init(logLevel: "debug"),
            environment: ["HOME": directory.url.path, "XDG_STATE_HOME": directory.url.appendingPathComponent("state").path])
        let options = settings.options
        #expect(options.logFile?.path == directory.url.appendingPathComponent("state/weft/weft.log").path)
        #expect(settings.logLevel.layer == SettingsLayer.flag)
        let logger = try #require(AppLog.logger(level: options.logLevel, file: options.logFile))
        let file = try #require(options.logFile)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        logger.trace("below the level")
        logger.debug("Resolved FactService", metadata: ["weft.key": "FactService"])
        logger.warning("slow")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix("debug [weft] Resolved FactService weft.key=FactService") == true)
    }

    @Test("Without a level or a file there is no log; an unwritable file drops lines, never stops the app")
    func silentOrUnwritable() throws {
        #expect(AppLog.logger(level: nil, file: URL(fileURLWithPath: "/tmp/x.log")) == nil)
        let logger = try #require(AppLog.logger(level: "info", file: URL(fileURLWithPath: "/dev/null/nested/weft.log")))
        logger.info("dropped")  // /dev/null is not a folder: nothing to write to, and no crash
    }
}
