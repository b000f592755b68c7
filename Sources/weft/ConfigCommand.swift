import ArgumentParser
import WeftApp

/// `weft config`: each setting, its value and its layer.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show each setting, its value and where it came from (flag, WEFT_* variable, config.json, default).",
        discussion: """
            config.json lives beside your environments file ($XDG_CONFIG_HOME/weft/config.json, \
            else ~/.config/weft/config.json), for example: \
            {"env": "staging", "database": "~/weft.sqlite", "environments": "environments.json", "logLevel": "info", "startupDeadline": 30}
            """
    )

    @OptionGroup var settings: SettingsOptions

    func run() throws {
        _ = ConfigMode.run(settings: try settings.settings())
    }
}
