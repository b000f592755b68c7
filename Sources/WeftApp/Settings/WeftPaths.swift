import FactKit
public import Foundation

/// Where weft keeps its files, following the XDG base directories.
///
/// | file | default |
/// |---|---|
/// | settings | `$XDG_CONFIG_HOME/weft/config.json`, else `~/.config/weft/config.json` |
/// | your environments | `$XDG_CONFIG_HOME/weft/environments.json`, else `~/.config/weft/environments.json` |
/// | history | `$XDG_DATA_HOME/weft/history.sqlite`, else `~/.local/share/weft/history.sqlite` |
/// | log | `$XDG_STATE_HOME/weft/weft.log`, else `~/.local/state/weft/weft.log` |
public struct WeftPaths: Sendable, Hashable {
    /// The folder of the settings and the user environments file.
    public var configDirectory: URL
    /// The default history database.
    public var defaultDatabase: URL
    /// The app's log file: never the terminal, which the full-screen app owns.
    public var logFile: URL

    /// The paths for the process environment `environment` (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `HOME`).
    public init(environment: [String: String]) {
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            .map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        let configHome =
            environment["XDG_CONFIG_HOME"].flatMap {
                $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil
            }
            ?? home.appendingPathComponent(".config", isDirectory: true)
        configDirectory = configHome.appendingPathComponent("weft", isDirectory: true)
        defaultDatabase = HistoryDatabase.defaultURL(environment: environment)
        let stateHome =
            environment["XDG_STATE_HOME"].flatMap {
                $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil
            }
            ?? home.appendingPathComponent(".local/state", isDirectory: true)
        logFile = stateHome.appendingPathComponent("weft/weft.log")
    }

    /// `config.json`: settings below flags and `WEFT_*` variables.
    public var configFile: URL { configDirectory.appendingPathComponent("config.json") }
    /// `environments.json`: environments added to (or replacing by name) the bundled ones.
    public var userEnvironmentsFile: URL { configDirectory.appendingPathComponent("environments.json") }
}
