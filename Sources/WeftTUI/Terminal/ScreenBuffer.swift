import WeftApp
import WeftTerminal

/// An in-memory ``Terminal``: a grid of styled cells that screens can be rendered into and
/// asserted on without a TTY.
///
/// ```swift
/// let screen = ScreenBuffer(size: TerminalSize(rows: 24, columns: 80))
/// FactView(...).render(on: screen)
/// #expect(screen.contains("seen 3 times"))
/// ```
///
/// Keys for ``readKey()`` come from a queue filled with ``enqueue(_:)``.
@MainActor
final class ScreenBuffer: Terminal {
    /// One character cell.
    struct Cell: Sendable, Hashable {
        /// The character shown; a space when blank. Unused for a continuation cell.
        var character: Character
        /// The style of the cell.
        var style: TextStyle
        /// Whether this is the right half of a wide glyph drawn in the cell to its left.
        var isContinuation: Bool

        /// A blank cell.
        static let blank = Cell(character: " ", style: .plain, isContinuation: false)
    }

    /// The grid's size; change it with ``resize(to:)``.
    private(set) var size: TerminalSize
    /// Whether colour roles are to be ignored.
    var isMonochrome: Bool
    /// Whether the buffer stands for a UTF-8 terminal; when `false`, boxes are `+-|`.
    var isUnicode: Bool
    /// Every text handed to ``copyToClipboard(_:)``, oldest first.
    private(set) var clipboard: [String] = []
    /// A simulated quit signal.
    var interruption: Interruption?
    /// How many times ``flush()`` was called.
    private(set) var flushCount = 0
    /// Where the last frame put the cursor.
    private(set) var cursor = CellPosition(row: 0, column: 0)
    /// Whether the last frame showed the cursor.
    private(set) var isCursorVisible = false
    private var cells: [[Cell]]
    private var pendingKeys: [Key] = []

    /// Creates a blank buffer.
    init(size: TerminalSize, isMonochrome: Bool = false, isUnicode: Bool = true) {
        self.size = size
        self.isMonochrome = isMonochrome
        self.isUnicode = isUnicode
        self.cells = Self.blankGrid(size)
    }

    /// Changes the size, blanks the grid and queues a ``Key/resize``, as a real terminal does.
    func resize(to size: TerminalSize) {
        self.size = size
        cells = Self.blankGrid(size)
        pendingKeys.append(.resize)
    }

    /// Queues keys for ``readKey()``.
    func enqueue(_ keys: Key...) {
        pendingKeys.append(contentsOf: keys)
    }

    // MARK: Terminal

    /// Blanks every cell.
    func clear() {
        cells = Self.blankGrid(size)
    }

    /// Writes `text` on one row, clipped to the grid.
    func put(_ text: String, row: Int, column: Int, style: TextStyle) {
        guard row >= 0, row < size.rows else { return }
        var col = column
        for character in TextLayout.sanitized(text) {
            let width = CellWidth.of(character)
            if width == 0 { continue }
            if col + width > size.columns { break }
            if col >= 0 {
                set(Cell(character: character, style: style, isContinuation: false), row: row, column: col)
                if width == 2 {
                    set(Cell(character: " ", style: style, isContinuation: true), row: row, column: col + 1)
                }
            }
            col += width
        }
    }

    /// Draws a box of `┌─┐│└┘` around `rect` (`+-|` when not ``isUnicode``).
    func drawBox(_ rect: Rect, style: TextStyle) {
        guard rect.height >= 2, rect.width >= 2 else { return }
        let (corners, horizontal, vertical) =
            isUnicode ? (["┌", "┐", "└", "┘"], "─", "│") : (["+", "+", "+", "+"], "-", "|")
        let inner = String(repeating: horizontal, count: rect.width - 2)
        put(corners[0] + inner + corners[1], row: rect.row, column: rect.column, style: style)
        put(corners[2] + inner + corners[3], row: rect.bottom - 1, column: rect.column, style: style)
        for row in (rect.row + 1)..<(rect.bottom - 1) {
            put(vertical, row: row, column: rect.column, style: style)
            put(vertical, row: row, column: rect.right - 1, style: style)
        }
    }

    /// Records `text` in ``clipboard``.
    func copyToClipboard(_ text: String) {
        clipboard.append(text)
    }

    /// Records where the cursor goes and whether it shows.
    func placeCursor(at position: CellPosition, visible: Bool) {
        cursor = position
        isCursorVisible = visible
    }

    /// Counts the flush; the grid is always current.
    func flush() {
        flushCount += 1
    }

    /// The next queued key, or ``Key/none``.
    func readKey() -> Key {
        pendingKeys.isEmpty ? .none : pendingKeys.removeFirst()
    }

    // MARK: Reading back

    /// Every row as text with trailing spaces trimmed; a wide glyph appears once.
    var lines: [String] {
        (0..<size.rows).map { text(at: $0) }
    }

    /// Row `row` as text with trailing spaces trimmed; empty when out of range.
    func text(at row: Int) -> String {
        var line = rowText(row)
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The whole screen as one string, rows joined by line breaks (for failure messages).
    var rendered: String {
        lines.joined(separator: "\n")
    }

    /// Whether `text` appears on some row.
    func contains(_ text: String) -> Bool {
        position(of: text) != nil
    }

    /// The cell position (row, column) where `text` first appears, or `nil`.
    func position(of text: String) -> (row: Int, column: Int)? {
        for row in 0..<size.rows {
            var heads: [Int] = []  // column of each character of the row text
            var line = ""
            for (column, cell) in cells[row].enumerated() where !cell.isContinuation {
                heads.append(column)
                line.append(cell.character)
            }
            guard let range = line.firstRange(of: text) else { continue }
            let offset = line.distance(from: line.startIndex, to: range.lowerBound)
            return (row, heads[offset])
        }
        return nil
    }

    /// The cell at `(row, column)`, or `nil` outside the grid.
    func cell(row: Int, column: Int) -> Cell? {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns else { return nil }
        return cells[row][column]
    }

    /// The style of the cell at `(row, column)`, or `nil` outside the grid.
    func style(row: Int, column: Int) -> TextStyle? {
        cell(row: row, column: column)?.style
    }

    // MARK: Private

    private func rowText(_ row: Int) -> String {
        guard row >= 0, row < size.rows else { return "" }
        var line = ""
        for cell in cells[row] where !cell.isContinuation {
            line.append(cell.character)
        }
        return line
    }

    /// Stores a cell, blanking the other half of any wide glyph it overwrites.
    private func set(_ cell: Cell, row: Int, column: Int) {
        guard column >= 0, column < size.columns else { return }
        let old = cells[row][column]
        if old.isContinuation, !cell.isContinuation, column > 0 {
            cells[row][column - 1].character = " "  // left half of a glyph being cut
        }
        if !old.isContinuation, column + 1 < size.columns, cells[row][column + 1].isContinuation {
            cells[row][column + 1] = Cell(character: " ", style: old.style, isContinuation: false)
        }
        cells[row][column] = cell
    }

    private static func blankGrid(_ size: TerminalSize) -> [[Cell]] {
        Array(repeating: Array(repeating: Cell.blank, count: max(0, size.columns)), count: max(0, size.rows))
    }
}
