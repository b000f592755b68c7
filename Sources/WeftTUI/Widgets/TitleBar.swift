import WeftTerminal

/// The top line of every screen: app name and environment on the left, screen title right.
struct TitleBar: Sendable, Hashable {
    /// The app name.
    var appName: String
    /// The environment, or `nil` before one is chosen.
    var environmentName: String?
    /// The current screen's title.
    var screenTitle: String

    /// Creates a title bar.
    init(appName: String = "weft", environmentName: String?, screenTitle: String) {
        self.appName = appName
        self.environmentName = environmentName
        self.screenTitle = screenTitle
    }

    /// Draws the bar across the full width of `row`.
    @MainActor
    func draw(row: Int, on terminal: any Terminal, theme: Theme) {
        let width = terminal.size.columns
        var left = " \(appName)"
        if let environmentName { left += " · \(environmentName)" }
        let right = screenTitle + " "
        let rightWidth = TextLayout.width(of: right)
        let leftWidth = max(0, width - rightWidth - 1)
        let line =
            TextLayout.pad(left, toWidth: leftWidth) + " "
            + TextLayout.pad(right, toWidth: width - leftWidth - 1, alignment: .right)
        terminal.put(line, row: row, column: 0, style: theme.titleBar)
    }
}
