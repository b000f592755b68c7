import WeftTerminal

/// One entry of the key-hint bar and of the help overlay: a key and what it does.
struct KeyHint: Sendable, Hashable {
    /// The key as shown, such as `q`, `↑↓` or `Enter`.
    var key: String
    /// What the key does, such as `quit`.
    var label: String

    /// Creates a hint.
    init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}
