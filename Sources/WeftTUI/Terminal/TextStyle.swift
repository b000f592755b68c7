/// How text is drawn: a colour role plus bold, reverse and dim attributes.
public struct TextStyle: Sendable, Hashable {
    /// The colour role, ignored by monochrome terminals.
    public var role: ColorRole
    /// Bold (or bright) text.
    public var isBold: Bool
    /// Reverse video: foreground and background swapped.
    public var isReverse: Bool
    /// Dim (half-bright) text.
    public var isDim: Bool

    /// Creates a style.
    public init(role: ColorRole = .normal, isBold: Bool = false, isReverse: Bool = false, isDim: Bool = false) {
        self.role = role
        self.isBold = isBold
        self.isReverse = isReverse
        self.isDim = isDim
    }

    /// Plain text in the terminal's default colours.
    public static let plain = TextStyle()
}
