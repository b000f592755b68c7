/// One character cell: a zero-based row and column.
package struct CellPosition: Sendable, Hashable, CustomStringConvertible {
    /// The row, from 0 at the top.
    package var row: Int
    /// The column, from 0 at the left.
    package var column: Int

    /// Creates a position.
    package init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// `column,row`, as tmux prints `#{cursor_x},#{cursor_y}`.
    package var description: String { "\(column),\(row)" }
}

extension Rect {
    /// Whether `position` is one of the rectangle's cells.
    package func contains(_ position: CellPosition) -> Bool {
        position.row >= row && position.row < bottom && position.column >= column && position.column < right
    }
}
