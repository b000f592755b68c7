import ArgumentParser
import WeftApp

/// `weft environments`: every environment, where it comes from and which file defines it.
struct EnvironmentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "environments",
        abstract: "List the environments: name, source, description and the file each comes from.",
        discussion: """
            The bundled environments, plus those in your environments file \
            ($XDG_CONFIG_HOME/weft/environments.json, or the file WEFT_ENVIRONMENTS or config.json \
            names), which adds environments and replaces bundled ones of the same name. \
            --environments replaces the whole list for one run.
            """
    )

    @OptionGroup var settings: SettingsOptions

    @Flag(help: "One JSON object per environment: name, source, description, file, isDefault.")
    var json = false

    @Flag(
        help:
            "Print a starter environments file instead: weft environments --template > ~/.config/weft/environments.json"
    )
    var template = false

    func run() throws {
        if template {
            StandardStreams.writeOutput(EnvironmentsMode.template)
            return
        }
        let status = EnvironmentsMode.list(options: try settings.settings().options, json: json)
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
