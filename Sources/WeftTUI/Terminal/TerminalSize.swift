/// The size of a terminal in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Number of rows (lines).
    public var rows: Int
    /// Number of columns (cells per line).
    public var columns: Int

    /// Creates a size.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// Whether a terminal of this size can hold a layout that needs `minimum`.
    public func fits(_ minimum: TerminalSize) -> Bool {
        rows >= minimum.rows && columns >= minimum.columns
    }

    /// The size as `columns×rows`, such as `80×24`.
    public var description: String { "\(columns)×\(rows)" }
}
