import Foundation
import WeftTestSupport

/// Runs `body` with a settings folder of its own (`XDG_CONFIG_HOME`, `XDG_DATA_HOME` and `HOME`
/// in a temporary directory) holding `json` as `weft/config.json` when given, and the process
/// environment that points there.
func withConfig(_ json: String?, _ body: (URL, [String: String]) throws -> Void) throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let environment = [
        "XDG_CONFIG_HOME": directory.path, "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
        "HOME": directory.path,
    ]
    if let json {
        let folder = directory.appendingPathComponent("weft")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: folder.appendingPathComponent("config.json"))
    }
    try body(directory, environment)
}
