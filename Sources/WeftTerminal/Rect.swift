/// A rectangle of character cells: top-left corner plus height and width.
package struct Rect: Sendable, Hashable {
    /// The top row.
    package var row: Int
    /// The leftmost column.
    package var column: Int
    /// Number of rows; never negative.
    package var height: Int
    /// Number of columns; never negative.
    package var width: Int

    /// Creates a rectangle; negative extents are clamped to zero.
    package init(row: Int, column: Int, height: Int, width: Int) {
        self.row = row
        self.column = column
        self.height = max(0, height)
        self.width = max(0, width)
    }

    /// The row just below the rectangle.
    package var bottom: Int { row + height }
    /// The column just right of the rectangle.
    package var right: Int { column + width }
    /// Whether the rectangle holds no cells.
    package var isEmpty: Bool { height == 0 || width == 0 }

    /// The rectangle shrunk by `rows` at top and bottom and `columns` at left and right.
    package func insetBy(rows: Int, columns: Int) -> Rect {
        Rect(row: row + rows, column: column + columns, height: height - 2 * rows, width: width - 2 * columns)
    }

    /// A rectangle of the given size centred inside this one (clamped to fit).
    package func centered(height: Int, width: Int) -> Rect {
        let h = min(height, self.height)
        let w = min(width, self.width)
        return Rect(row: row + (self.height - h) / 2, column: column + (self.width - w) / 2, height: h, width: w)
    }
}
