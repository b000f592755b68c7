import WeftTerminal

/// One entry of the key-hint bar and of the help overlay: a key and what it does.
struct KeyHint: Sendable, Hashable {
    /// The key as shown, such as `q`, `↑↓` or `Enter`.
    var key: String
    /// What the key does, such as `quit`.
    var label: String
    /// What a click on the hint in the key bar does: the key's action; `nil` in help.
    var action: KeyAction?

    /// Creates a hint.
    init(_ key: String, _ label: String, action: KeyAction? = nil) {
        self.key = key
        self.label = label
        self.action = action
    }
}
