/// One resolved setting: its value and the layer that gave it.
public struct Setting: Sendable, Hashable {
    /// The setting's name in `config.json`, such as `env`.
    public var key: String
    /// The value, or `nil` when nothing sets it and it has no default.
    public var value: String?
    /// Where the value came from.
    public var layer: SettingsLayer
    /// The command-line option that sets it, such as `--env`.
    public var flag: String
    /// The environment variable that sets it, such as `WEFT_ENV`.
    public var variable: String

    /// Creates a setting.
    public init(key: String, value: String?, layer: SettingsLayer, flag: String, variable: String) {
        self.key = key
        self.value = value
        self.layer = layer
        self.flag = flag
        self.variable = variable
    }
}
