/// How text is drawn: a colour role plus bold, reverse and dim attributes.
struct TextStyle: Sendable, Hashable {
    /// The colour role, ignored by monochrome terminals.
    var role: ColorRole
    /// Bold (or bright) text.
    var isBold: Bool
    /// Reverse video: foreground and background swapped.
    var isReverse: Bool
    /// Dim (half-bright) text.
    var isDim: Bool

    /// Creates a style.
    init(role: ColorRole = .normal, isBold: Bool = false, isReverse: Bool = false, isDim: Bool = false) {
        self.role = role
        self.isBold = isBold
        self.isReverse = isReverse
        self.isDim = isDim
    }

    /// Plain text in the terminal's default colours.
    static let plain = TextStyle()
}
