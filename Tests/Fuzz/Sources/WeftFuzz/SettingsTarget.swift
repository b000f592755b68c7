import Foundation
import WeftApp

/// The settings: `config.json`'s text and the values of the `WEFT_*` environment variables.
///
/// The input is the file's bytes, then a NUL and each variable's value in turn (`WEFT_ENV`,
/// `WEFT_DATABASE`, `WEFT_ENVIRONMENTS`, `WEFT_LOG_LEVEL`, `WEFT_STARTUP_DEADLINE`,
/// `WEFT_MOUSE`, `WEFT_A11Y`), NUL
/// between them. A refusal names the file and the line (a syntax error: line and column), or
/// the setting and its layer; accepted settings hold only values weft accepts, and the file's
/// settings, written back, read the same.
enum SettingsTarget {
    static let name = "settings"
    static let path = "/home/someone/.config/weft/config.json"
    static let variables = [
        "WEFT_ENV", "WEFT_DATABASE", "WEFT_ENVIRONMENTS", "WEFT_LOG_LEVEL", "WEFT_STARTUP_DEADLINE", "WEFT_MOUSE",
        "WEFT_A11Y",
    ]

    static let run: FuzzTarget = { bytes in
        let parts = split(bytes, by: 0, parts: variables.count + 1)
        var environment = ["HOME": "/home/someone"]
        for (variable, value) in zip(variables, parts.dropFirst()) {
            environment[variable] = String(decoding: value, as: UTF8.self)
        }
        let config: [String: String]
        do throws(SettingsError) {
            config = try AppSettings.parseConfig(Data(parts[0]), path: path)
        } catch {
            guard case .invalidConfig(let named, let problem) = error else {
                fuzzFailure("reading config.json failed other than as invalidConfig: \(error)")
            }
            require(
                named == path && error.description.hasPrefix(path), "an error that does not name the file: \(error)")
            require(
                problem.contains("line"), "an error that does not say where in the file: \(error)")
            return
        }
        checkRoundTrip(config)
        let settings: AppSettings
        do throws(SettingsError) {
            settings = try AppSettings(flags: .init(), environment: environment, config: config)
        } catch {
            guard case .invalidValue(let key, _, _, let expected) = error else {
                fuzzFailure("settings from a readable file failed other than as invalidValue: \(error)")
            }
            require(
                AppSettings.keys.contains(key) && !expected.isEmpty
                    && error.description.contains("setting \(key) from"),
                "an error that does not name the setting and its layer: \(error)")
            return
        }
        if let level = settings.logLevel.value {
            require(AppSettings.logLevels.contains(level), "an accepted log level weft does not know: \(level)")
        }
        for setting in [settings.mouse, settings.a11y] {
            require(
                setting.value.flatMap(AppSettings.isOn) != nil,
                "an accepted switch that is neither on nor off: \(setting)")
        }
        require(
            settings.options.mouse == AppSettings.isOn(settings.mouse.value ?? "")
                && settings.options.showsCursor == AppSettings.isOn(settings.a11y.value ?? ""),
            "the options do not follow the mouse and a11y settings")
        switch (settings.startupDeadline.value, settings.startupDeadlineDuration) {
        case (nil, nil): break
        case (let text?, let deadline?):
            require(
                AppSettings.deadline(seconds: text) == deadline && deadline > .zero
                    && deadline <= .seconds(AppSettings.maximumDeadlineSeconds),
                "an accepted deadline out of range: \(text)")
        default:
            fuzzFailure("a deadline setting and its duration disagree: \(settings.startupDeadline)")
        }
    }

    /// The file's settings, written as a JSON object of strings, read the same.
    static func checkRoundTrip(_ config: [String: String]) {
        let written =
            "{"
            + config.sorted { $0.key < $1.key }.map { jsonString($0.key) + ": " + jsonString($0.value) }
            .joined(separator: ", ") + "}"
        do throws(SettingsError) {
            let again = try AppSettings.parseConfig(Data(written.utf8), path: path)
            require(again == config, "settings written back read differently: \(written)")
        } catch {
            fuzzFailure("settings written back are refused: \(error)\n\(written)")
        }
    }
}
