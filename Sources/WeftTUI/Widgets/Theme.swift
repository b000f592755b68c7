import WeftTerminal

/// The styles widgets draw with: colour roles on a colour terminal, only bold and reverse
/// video on a monochrome one.
struct Theme: Sendable, Hashable {
    /// Whether the theme avoids colour.
    let isMonochrome: Bool
    /// The symbols to draw: Unicode, or ASCII for a terminal that cannot show Unicode.
    let glyphs: Glyphs

    /// Creates a theme.
    init(isMonochrome: Bool, isUnicode: Bool = true) {
        self.isMonochrome = isMonochrome
        self.glyphs = Glyphs.forUnicode(isUnicode)
    }

    /// The theme suiting `terminal`.
    @MainActor
    init(for terminal: any Terminal) {
        self.init(isMonochrome: terminal.isMonochrome, isUnicode: terminal.isUnicode)
    }

    /// Body text.
    var text: TextStyle { .plain }
    /// The title bar at the top.
    var titleBar: TextStyle { style(.titleBar, bold: true, monochrome: TextStyle(isBold: true, isReverse: true)) }
    /// The key-hint bar at the bottom.
    var hintBar: TextStyle { style(.hintBar, monochrome: TextStyle(isReverse: true)) }
    /// A key name inside the key-hint bar.
    var hintKey: TextStyle { style(.hintKey, bold: true, monochrome: TextStyle(isBold: true, isReverse: true)) }
    /// Headings and the logo.
    var accent: TextStyle { style(.accent, bold: true, monochrome: TextStyle(isBold: true)) }
    /// Finished work.
    var success: TextStyle { style(.success, monochrome: .plain) }
    /// Failed work and error headings.
    var failure: TextStyle { style(.failure, bold: true, monochrome: TextStyle(isBold: true)) }
    /// Hints and cautions.
    var warning: TextStyle { style(.warning, monochrome: .plain) }
    /// Secondary text.
    var muted: TextStyle { style(.muted, monochrome: .plain) }
    /// The highlighted row of a list.
    var selection: TextStyle { style(.selection, bold: true, monochrome: TextStyle(isBold: true, isReverse: true)) }
    /// Box borders.
    var border: TextStyle { style(.border, monochrome: .plain) }
    /// The border of a box that reports a failure.
    var failureBorder: TextStyle { style(.failure, monochrome: TextStyle(isBold: true)) }
    /// Box titles.
    var boxTitle: TextStyle { style(.accent, bold: true, monochrome: TextStyle(isBold: true)) }

    private func style(_ role: ColorRole, bold: Bool = false, monochrome: TextStyle) -> TextStyle {
        isMonochrome ? monochrome : TextStyle(role: role, isBold: bold)
    }
}
