/// What a piece of text means, which a colour terminal maps to a colour pair.
///
/// Monochrome terminals ignore roles; ``Theme`` then uses bold and reverse video instead.
package enum ColorRole: Int, Sendable, Hashable, CaseIterable {
    /// The terminal's default colours.
    case normal
    /// The title bar at the top of every screen.
    case titleBar
    /// The key-hint bar at the bottom of every screen.
    case hintBar
    /// A key name inside the key-hint bar.
    case hintKey
    /// Headings, logo and emphasis.
    case accent
    /// Finished work.
    case success
    /// Failed work.
    case failure
    /// Hints and cautions.
    case warning
    /// Secondary text.
    case muted
    /// The highlighted row of a list.
    case selection
    /// Box borders.
    case border
}
