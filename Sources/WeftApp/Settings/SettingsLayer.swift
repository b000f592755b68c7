/// Where a setting's value came from, highest precedence first.
public enum SettingsLayer: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A command-line option, such as `--env`.
    case flag
    /// A `WEFT_*` environment variable.
    case environmentVariable = "environment variable"
    /// `config.json` in the settings folder.
    case configFile = "config.json"
    /// Built into weft.
    case builtIn = "default"

    /// The layer's name as `weft config` prints it.
    public var description: String { rawValue }
}
