/// The size of a terminal in character cells.
package struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Number of rows (lines).
    package var rows: Int
    /// Number of columns (cells per line).
    package var columns: Int

    /// Creates a size.
    package init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// Whether a terminal of this size can hold a layout that needs `minimum`.
    package func fits(_ minimum: TerminalSize) -> Bool {
        rows >= minimum.rows && columns >= minimum.columns
    }

    /// The size as `columns×rows`, such as `80×24`.
    package var description: String { "\(columns)×\(rows)" }
}
