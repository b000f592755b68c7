/// Why the settings could not be read.
public enum SettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `config.json` exists but cannot be read.
    case unreadableConfig(path: String, reason: String)
    /// `config.json` is not a JSON object of strings.
    case invalidConfig(path: String, problem: String)
    /// A setting has a value weft does not accept.
    case invalidValue(key: String, value: String, layer: SettingsLayer, expected: String)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case .unreadableConfig(let path, let reason):
            "\(path): cannot read the settings file (\(reason)); check its permissions, or delete it to use the defaults"
        case .invalidConfig(let path, let problem):
            "\(path): \(problem); expected an object such as {\"env\": \"embedded\", \"logLevel\": \"info\"} "
                + "with keys \(AppSettings.keys.joined(separator: ", "))"
        case .invalidValue(let key, let value, let layer, let expected):
            "setting \(key) from the \(layer) layer: \"\(value)\" is not valid; expected \(expected)"
        }
    }
}
