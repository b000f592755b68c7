import Foundation
import Testing
import WeftTestSupport

@testable import WeftApp

@Suite("AppSettings: flag > WEFT_* variable > config.json > default")
struct AppSettingsTests {
    @Test("each layer wins over the ones below it, and says so")
    func layers() throws {
        try withConfig(#"{"env": "staging", "database": "db.sqlite", "logLevel": "info"}"#) { directory, environment in
            let defaults = try AppSettings(environment: environment)
            #expect(defaults.environmentName.value == "staging" && defaults.environmentName.layer == .configFile)
            #expect(
                defaults.database.value == directory.appendingPathComponent("weft/db.sqlite").path,
                "relative to config.json's folder")
            #expect(defaults.logLevel.value == "info" && defaults.logLevel.layer == .configFile)
            #expect(defaults.environments.layer == .builtIn)
            #expect(defaults.environments.value == directory.appendingPathComponent("weft/environments.json").path)

            var variables = environment
            variables["WEFT_ENV"] = "broken"
            variables["WEFT_LOG_LEVEL"] = "debug"
            let fromVariables = try AppSettings(environment: variables)
            #expect(
                fromVariables.environmentName.value == "broken"
                    && fromVariables.environmentName.layer == .environmentVariable)
            #expect(fromVariables.logLevel.value == "debug")

            let fromFlags = try AppSettings(
                flags: .init(environmentName: "production", database: "/tmp/x.sqlite"), environment: variables)
            #expect(fromFlags.environmentName.value == "production" && fromFlags.environmentName.layer == .flag)
            #expect(fromFlags.database.value == "/tmp/x.sqlite" && fromFlags.database.layer == .flag)
            #expect(fromFlags.report.contains { $0.contains("production") && $0.contains("[flag]") })
        }
    }

    @Test("without any layer: the first environment, the XDG paths, level warning")
    func defaults() throws {
        try withConfig(nil) { directory, environment in
            let settings = try AppSettings(environment: environment)
            #expect(settings.environmentName.value == nil && settings.environmentName.layer == .builtIn)
            #expect(settings.database.value == directory.appendingPathComponent("data/weft/history.sqlite").path)
            #expect(settings.logLevel.value == "warning")
            #expect(settings.options.userEnvironmentsFile == nil, "a missing default user file is not an error")
        }
    }

    @Test("--environments replaces the list; WEFT_ENVIRONMENTS adds a file to the bundled list")
    func environmentsFile() throws {
        try withConfig(nil) { _, environment in
            let flag = try AppSettings(flags: .init(environmentsFile: "/tmp/a.json"), environment: environment).options
            #expect(flag.environmentsFile?.path == "/tmp/a.json" && flag.userEnvironmentsFile == nil)
            var variables = environment
            variables["WEFT_ENVIRONMENTS"] = "/tmp/b.json"
            let variable = try AppSettings(environment: variables).options
            #expect(variable.environmentsFile == nil && variable.userEnvironmentsFile?.path == "/tmp/b.json")
        }
    }

    @Test("a malformed config.json or a bad level is an error naming the file, key or layer")
    func errors() throws {
        try withConfig(#"{"colour": "red"}"#) { directory, environment in
            #expect(
                throws: SettingsError.invalidConfig(
                    path: directory.appendingPathComponent("weft/config.json").path,
                    problem: "unknown key \"colour\" on line 1")
            ) {
                try AppSettings(environment: environment)
            }
        }
        try withConfig("not json") { _, environment in
            #expect(throws: SettingsError.self) { try AppSettings(environment: environment) }
        }
        try withConfig(nil) { _, environment in
            var variables = environment
            variables["WEFT_LOG_LEVEL"] = "loud"
            #expect(
                throws: SettingsError.invalidValue(
                    key: "logLevel", value: "loud", layer: .environmentVariable,
                    expected: "one of \(AppSettings.logLevels.joined(separator: ", "))")
            ) {
                try AppSettings(environment: variables)
            }
        }
    }

    @Test(
        "config.json is read strictly: a syntax error names its line and column, a key given twice is refused",
        arguments: [
            ("{\n  \"env\": \"broken\",\n}", "not valid JSON: expected a key in quotes at line 3, column 1"),
            (
                #"{"env": "a", "env": "b"}"#,
                #"not valid JSON: the key "env" appears twice in one object (first on line 1) at line 1, column 14"#
            ),
            ("[\"env\"]", "the top level is not an object (line 1)"),
            ("{\n\n  \"logLevel\": 3}", "logLevel must be a string (line 3)"),
            ("{\"env\": \"caf\u{E9}\", \"x\": 1}", "unknown key \"x\" on line 1"),
        ])
    func strictConfig(text: String, problem: String) {
        #expect(throws: SettingsError.invalidConfig(path: "config.json", problem: problem)) {
            try AppSettings.parseConfig(Data(text.utf8), path: "config.json")
        }
    }

    @Test("a config.json over 64 KiB is refused by its size, not read whole")
    func largeConfig() throws {
        let padding = String(repeating: " ", count: 64 * 1024)
        try withConfig(#"{"env": "staging"}"# + padding) { directory, environment in
            #expect(
                throws: SettingsError.invalidConfig(
                    path: directory.appendingPathComponent("weft/config.json").path,
                    problem: "it is larger than 64 KiB, too large for a settings file")
            ) {
                try AppSettings(environment: environment)
            }
        }
    }

    @Test("a startupDeadline number in config.json reads as the number written")
    func deadlineNumbers() throws {
        #expect(
            try AppSettings.parseConfig(Data(#"{"startupDeadline": 2.5}"#.utf8), path: "c") == [
                "startupDeadline": "2.5"
            ])
        #expect(
            try AppSettings.parseConfig(Data(#"{"startupDeadline": 30}"#.utf8), path: "c") == ["startupDeadline": "30"])
        #expect(
            try AppSettings.parseConfig(Data(#"{"startupDeadline": 1e300}"#.utf8), path: "c") == [
                "startupDeadline": "1e+300"
            ])
    }

    @Test("mouse and a11y: on by default and off; config booleans or words, WEFT_MOUSE, WEFT_A11Y, --no-mouse, --a11y")
    func switches() throws {
        try withConfig(nil) { _, environment in
            let defaults = try AppSettings(environment: environment)
            #expect(defaults.mouse.value == "on" && defaults.mouse.layer == .builtIn)
            #expect(defaults.options.mouse && !defaults.options.showsCursor)
        }
        try withConfig(#"{"mouse": false, "a11y": "yes"}"#) { _, environment in
            let fromConfig = try AppSettings(environment: environment)
            #expect(fromConfig.mouse.value == "off" && fromConfig.mouse.layer == .configFile)
            #expect(!fromConfig.options.mouse && fromConfig.options.showsCursor)
            var variables = environment
            variables["WEFT_MOUSE"] = "ON"
            variables["WEFT_A11Y"] = "0"
            let fromVariables = try AppSettings(environment: variables)
            #expect(fromVariables.options.mouse && !fromVariables.options.showsCursor)
            let fromFlags = try AppSettings(flags: .init(mouse: "off", a11y: "on"), environment: variables)
            #expect(!fromFlags.options.mouse && fromFlags.options.showsCursor)
            #expect(
                fromFlags.report.contains { $0.hasPrefix("a11y") && $0.contains("[flag]") && $0.contains("--a11y") })
        }
    }

    @Test("a mouse or a11y value that is not a switch is an error naming the setting, the value and the layer")
    func badSwitches() throws {
        try withConfig(nil) { _, environment in
            var variables = environment
            variables["WEFT_MOUSE"] = "sometimes"
            #expect(
                throws: SettingsError.invalidValue(
                    key: "mouse", value: "sometimes", layer: .environmentVariable,
                    expected: AppSettings.switchExpectation)
            ) { try AppSettings(environment: variables) }
        }
        for json in [#"{"a11y": 1}"#, #"{"mouse": null}"#, #"{"mouse": ["on"]}"#] {
            #expect(throws: SettingsError.self) { try AppSettings.parseConfig(Data(json.utf8), path: "c") }
        }
        #expect(
            try AppSettings.parseConfig(Data(#"{"mouse": true, "a11y": "off"}"#.utf8), path: "c") == [
                "mouse": "on", "a11y": "off",
            ])
        try withConfig(#"{"a11y": "maybe"}"#) { _, environment in
            do {
                _ = try AppSettings(environment: environment)
                Issue.record("a11y \"maybe\" was accepted")
            } catch {
                #expect("\(error)".contains("a11y") && "\(error)".contains("maybe") && "\(error)".contains("on or off"))
            }
        }
    }
}
