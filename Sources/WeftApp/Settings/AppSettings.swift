import FactKit
package import Foundation

/// weft's settings, each resolved through layers: command-line flag, then `WEFT_*`
/// environment variable, then `config.json` in the settings folder, then the built-in default.
///
/// | key | flag | variable | default |
/// |---|---|---|---|
/// | `env` | `--env` | `WEFT_ENV` | the first environment |
/// | `database` | `--database` | `WEFT_DATABASE` | ``WeftPaths/defaultDatabase`` |
/// | `environments` | `--environments` | `WEFT_ENVIRONMENTS` | ``WeftPaths/userEnvironmentsFile`` |
/// | `logLevel` | `--log-level` | `WEFT_LOG_LEVEL` | `warning` |
/// | `startupDeadline` | `--startup-deadline` | `WEFT_STARTUP_DEADLINE` | none: no deadline |
/// | `mouse` | `--no-mouse` | `WEFT_MOUSE` | `on` |
/// | `a11y` | `--a11y` | `WEFT_A11Y` | `off` |
///
/// `environments` from the flag replaces the bundled list for one run; from any other layer
/// it names a file whose environments are added to the bundled ones (a name already listed is
/// replaced). Relative paths in `config.json` are relative to its folder. `startupDeadline` is
/// a positive number of seconds, such as `30` or `2.5` (in `config.json` a string or a number):
/// when a start-up takes longer, it stops and says which step held it up. `mouse` and `a11y`
/// are `on` or `off` (also `true`/`false`, `yes`/`no`, `1`/`0`; in `config.json` a boolean
/// too): `mouse` off leaves the mouse to the terminal (selecting text), `a11y` on draws the
/// cursor where the focus is.
///
/// ```swift
/// let settings = try AppSettings(flags: .init(environmentName: "broken"), environment: ProcessInfo.processInfo.environment)
/// print(settings.environmentName.value, settings.environmentName.layer)   // broken flag
/// ```
public struct AppSettings: Sendable, Hashable {
    /// Values given on the command line (`nil` when not given).
    public struct Flags: Sendable, Hashable {
        /// `--env`.
        public var environmentName: String?
        /// `--environments`.
        public var environmentsFile: String?
        /// `--database`.
        public var database: String?
        /// `--log-level`.
        public var logLevel: String?
        /// `--startup-deadline`, in seconds.
        public var startupDeadline: String?
        /// `--no-mouse` gives `off`.
        public var mouse: String?
        /// `--a11y` gives `on`.
        public var a11y: String?

        /// Creates flag values.
        public init(
            environmentName: String? = nil, environmentsFile: String? = nil, database: String? = nil,
            logLevel: String? = nil, startupDeadline: String? = nil, mouse: String? = nil, a11y: String? = nil
        ) {
            self.mouse = mouse
            self.a11y = a11y
            self.environmentName = environmentName
            self.environmentsFile = environmentsFile
            self.database = database
            self.logLevel = logLevel
            self.startupDeadline = startupDeadline
        }
    }

    /// The keys `config.json` accepts.
    public static let keys = ["env", "database", "environments", "logLevel", "startupDeadline", "mouse", "a11y"]
    /// The accepted log levels, most verbose first.
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// Where the files live.
    public let paths: WeftPaths
    /// The environment to start in.
    public let environmentName: Setting
    /// The history database.
    public let database: Setting
    /// The environments file: replacing the bundled list (flag) or added to it.
    public let environments: Setting
    /// How much the app logs to standard error in plain mode.
    public let logLevel: Setting
    /// How long a start-up may take, in seconds; `nil` for no limit.
    public let startupDeadline: Setting
    /// ``startupDeadline`` as a duration; `nil` for no limit.
    public let startupDeadlineDuration: Duration?
    /// Whether the full-screen app takes clicks and the wheel.
    public let mouse: Setting
    /// Whether the full-screen app draws the cursor on the focus.
    public let a11y: Setting

    /// Every setting, in `weft config` order.
    public var all: [Setting] { [environmentName, database, environments, logLevel, startupDeadline, mouse, a11y] }

    /// What an on-or-off setting must look like, for error messages.
    public static let switchExpectation = "on or off (also true/false, yes/no, 1/0)"

    /// The switch `text` spells: `on`, `true`, `yes` or `1` for on, `off`, `false`, `no` or `0`
    /// for off (any case); `nil` for anything else.
    public static func isOn(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: nil
        }
    }

    /// Resolves every setting.
    ///
    /// - Parameters:
    ///   - flags: The command-line values.
    ///   - environment: The process environment (`WEFT_*`, `XDG_*`, `HOME`).
    /// - Throws: ``SettingsError`` for an unreadable or malformed `config.json` or a bad value.
    public init(flags: Flags = Flags(), environment: [String: String]) throws(SettingsError) {
        try self.init(
            flags: flags, environment: environment,
            config: Self.readConfig(WeftPaths(environment: environment).configFile))
    }

    /// The settings from `flags`, `environment` and `config`, the settings file's values as
    /// ``parseConfig(_:path:)`` read them.
    package init(flags: Flags, environment: [String: String], config: [String: String]) throws(SettingsError) {
        let paths = WeftPaths(environment: environment)
        self.paths = paths
        func resolve(
            _ key: String, flag: String, variable: String, flagValue: String?, isPath: Bool, default fallback: String?
        ) -> Setting {
            if let flagValue {
                return Setting(key: key, value: flagValue, layer: .flag, flag: flag, variable: variable)
            }
            if let value = environment[variable], !value.isEmpty {
                return Setting(key: key, value: value, layer: .environmentVariable, flag: flag, variable: variable)
            }
            if let value = config[key] {
                let resolved =
                    isPath && !value.hasPrefix("/") && !value.hasPrefix("~")
                    ? paths.configDirectory.appendingPathComponent(value).path : value
                return Setting(
                    key: key, value: Self.expandingTilde(resolved, environment: environment), layer: .configFile,
                    flag: flag, variable: variable)
            }
            return Setting(key: key, value: fallback, layer: .builtIn, flag: flag, variable: variable)
        }
        environmentName = resolve(
            "env", flag: "--env", variable: "WEFT_ENV", flagValue: flags.environmentName, isPath: false, default: nil)
        database = resolve(
            "database", flag: "--database", variable: "WEFT_DATABASE", flagValue: flags.database, isPath: true,
            default: paths.defaultDatabase.path)
        environments = resolve(
            "environments", flag: "--environments", variable: "WEFT_ENVIRONMENTS", flagValue: flags.environmentsFile,
            isPath: true,
            default: paths.userEnvironmentsFile.path)
        logLevel = resolve(
            "logLevel", flag: "--log-level", variable: "WEFT_LOG_LEVEL", flagValue: flags.logLevel, isPath: false,
            default: "warning")
        if let level = logLevel.value, !Self.logLevels.contains(level) {
            throw .invalidValue(
                key: "logLevel", value: level, layer: logLevel.layer,
                expected: "one of \(Self.logLevels.joined(separator: ", "))")
        }
        startupDeadline = resolve(
            "startupDeadline", flag: "--startup-deadline", variable: "WEFT_STARTUP_DEADLINE",
            flagValue: flags.startupDeadline, isPath: false, default: nil)
        if let value = startupDeadline.value {
            guard let deadline = Self.deadline(seconds: value) else {
                throw .invalidValue(
                    key: "startupDeadline", value: value, layer: startupDeadline.layer,
                    expected: Self.deadlineExpectation)
            }
            startupDeadlineDuration = deadline
        } else {
            startupDeadlineDuration = nil
        }
        mouse = resolve(
            "mouse", flag: "--no-mouse", variable: "WEFT_MOUSE", flagValue: flags.mouse, isPath: false, default: "on")
        a11y = resolve(
            "a11y", flag: "--a11y", variable: "WEFT_A11Y", flagValue: flags.a11y, isPath: false, default: "off")
        for setting in [mouse, a11y] {
            if let value = setting.value, Self.isOn(value) == nil {
                throw .invalidValue(
                    key: setting.key, value: value, layer: setting.layer, expected: Self.switchExpectation)
            }
        }
    }

    /// The longest start-up deadline accepted, in seconds: a day.
    public static let maximumDeadlineSeconds = 86_400.0

    /// What a start-up deadline must look like, for error messages.
    public static let deadlineExpectation =
        "a positive number of seconds such as 30 or 2.5, at most \(Int(maximumDeadlineSeconds)) (a day)"

    /// A start-up deadline written as seconds — digits with an optional decimal point, more than
    /// zero and at most ``maximumDeadlineSeconds`` — or `nil` when `text` is not one.
    public static func deadline(seconds text: String) -> Duration? {
        let digits = text.filter { $0 != "." }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            text.count - digits.count <= 1, let seconds = Double(text), seconds > 0,
            seconds <= maximumDeadlineSeconds
        else { return nil }
        return .milliseconds((seconds * 1_000).rounded(.up))
    }

    /// The options a run uses: the environment, the environments files and the database.
    ///
    /// A flag's environments file replaces the bundled list; a file named by a variable or
    /// `config.json` is added to it; the default user file is added when it exists.
    public var options: AppOptions {
        var options = AppOptions(
            environmentName: environmentName.value,
            databaseURL: database.value.map { URL(fileURLWithPath: $0) })
        options.logLevel = logLevel.value
        options.startupDeadline = startupDeadlineDuration
        options.mouse = mouse.value.flatMap(Self.isOn) ?? true
        options.showsCursor = a11y.value.flatMap(Self.isOn) ?? false
        options.logFile = paths.logFile
        switch environments.layer {
        case .flag:
            options.environmentsFile = environments.value.map { URL(fileURLWithPath: $0) }
        case .environmentVariable, .configFile:
            options.userEnvironmentsFile = environments.value.map { URL(fileURLWithPath: $0) }
        case .builtIn:
            if let path = environments.value, FileManager.default.fileExists(atPath: path) {
                options.userEnvironmentsFile = URL(fileURLWithPath: path)
            }
        }
        return options
    }

    /// The lines `weft config` prints: each setting, its value and its layer, then the files.
    public var report: [String] {
        let width = Self.keys.map(\.count).max() ?? 0
        var lines = all.map { setting in
            let name = setting.key.padding(toLength: width, withPad: " ", startingAt: 0)
            let value = setting.value ?? (setting.key == "env" ? "(first environment)" : "(none)")
            let sources = [setting.flag, setting.variable].filter { !$0.isEmpty }.joined(separator: ", ")
            return "\(name)  \(value)  [\(setting.layer)]  (\(sources))"
        }
        let configState = FileManager.default.fileExists(atPath: paths.configFile.path) ? "" : " (not present)"
        lines.append("")
        lines.append("settings file: \(paths.configFile.path)\(configState)")
        lines.append("layers, highest first: flag, WEFT_* environment variable, config.json, default")
        return lines
    }

    static func readConfig(_ url: URL) throws(SettingsError) -> [String: String] {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        let data: Data
        do {
            // Read up to the limit, not whole: the file is the user's, and could be anything.
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumConfigSize + 1) ?? Data()
        } catch {
            throw .unreadableConfig(path: path, reason: (error as NSError).localizedDescription)
        }
        guard data.count <= maximumConfigSize else {
            throw .invalidConfig(path: path, problem: "it is larger than 64 KiB, too large for a settings file")
        }
        return try parseConfig(data, path: path)
    }

    /// The largest `config.json` read: five settings need a few hundred bytes.
    static let maximumConfigSize = 64 * 1024

    /// The settings in `config.json`'s text, read strictly: a syntax error names its line and
    /// column, a key given twice is refused, and every value must be a string
    /// (`startupDeadline` may be a number).
    package static func parseConfig(_ data: Data, path: String) throws(SettingsError) -> [String: String] {
        let root: JSONDocument.Node
        do {
            root = try JSONDocument.parse(Array(data))
        } catch {
            throw .invalidConfig(path: path, problem: "not valid JSON: \(error)")
        }
        guard case .object(let members) = root.value else {
            throw .invalidConfig(path: path, problem: "the top level is not an object (line \(root.line))")
        }
        var values: [String: String] = [:]
        for member in members {
            let key = member.key
            guard keys.contains(key) else {
                throw .invalidConfig(
                    path: path, problem: "unknown key \"\(JSONDocument.quoted(key))\" on line \(member.value.line)")
            }
            switch member.value.value {
            case .string(let string):
                values[key] = string
            case .number where key == "startupDeadline":
                values[key] = member.value.summary
            case .bool(let value) where key == "mouse" || key == "a11y":
                values[key] = value ? "on" : "off"
            default:
                throw .invalidConfig(
                    path: path,
                    problem: key == "startupDeadline"
                        ? "startupDeadline must be a number of seconds (line \(member.value.line))"
                        : key == "mouse" || key == "a11y"
                            ? "\(key) must be true or false, or a string such as \"on\" or \"off\" (line \(member.value.line))"
                            : "\(key) must be a string (line \(member.value.line))")
            }
        }
        return values
    }

    private static func expandingTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }
}
