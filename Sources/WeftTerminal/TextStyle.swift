/// How text is drawn: a colour role plus bold, reverse and dim attributes.
package struct TextStyle: Sendable, Hashable {
    /// The colour role, ignored by monochrome terminals.
    package var role: ColorRole
    /// Bold (or bright) text.
    package var isBold: Bool
    /// Reverse video: foreground and background swapped.
    package var isReverse: Bool
    /// Dim (half-bright) text.
    package var isDim: Bool

    /// Creates a style.
    package init(role: ColorRole = .normal, isBold: Bool = false, isReverse: Bool = false, isDim: Bool = false) {
        self.role = role
        self.isBold = isBold
        self.isReverse = isReverse
        self.isDim = isDim
    }

    /// Plain text in the terminal's default colours.
    package static let plain = TextStyle()
}
