import WeftTerminal

/// A selectable list: the selected row highlighted, the current item marked, each item with
/// a muted description. Scrolls to keep the selection visible.
struct MenuList: Sendable, Hashable {
    /// One row of the list.
    struct Item: Sendable, Hashable {
        /// The item's name.
        var title: String
        /// A one-line description.
        var detail: String
        /// Whether this is the item currently in use (marked `●`).
        var isCurrent: Bool

        /// Creates an item.
        init(title: String, detail: String = "", isCurrent: Bool = false) {
            self.title = title
            self.detail = detail
            self.isCurrent = isCurrent
        }
    }

    /// The items.
    var items: [Item]
    /// The highlighted item's index (clamped to the items).
    var selectedIndex: Int
    /// The first item shown last time (``ListPosition/top``): the list scrolls from there only
    /// as far as keeps the selection in view.
    var top: Int

    /// Creates a list.
    init(items: [Item], selectedIndex: Int, top: Int = 0) {
        self.items = items
        self.selectedIndex = selectedIndex
        self.top = top
    }

    /// The index of the first visible item when `visibleRows` rows are available.
    func firstVisibleIndex(visibleRows: Int) -> Int {
        ListPosition.firstVisible(
            index: min(max(0, selectedIndex), max(0, items.count - 1)), top: top, count: items.count, rows: visibleRows)
    }

    /// Draws the visible items in `rect`, one per row; the focus is the selected item's name,
    /// a click on a row selects its item, and ``FrameLayout/listTop`` is the first item shown.
    @MainActor
    @discardableResult
    func draw(in rect: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        var layout = FrameLayout(topLeftOf: rect)
        guard !rect.isEmpty else { return layout }
        let titleWidth = min(items.map { TextLayout.width(of: $0.title) }.max() ?? 0, max(8, rect.width / 3))
        let first = firstVisibleIndex(visibleRows: rect.height)
        layout.listTop = first
        for (offset, index) in (first..<min(items.count, first + rect.height)).enumerated() {
            let item = items[index]
            let isSelected = index == selectedIndex
            let row = rect.row + offset
            layout.targets.append(
                FrameLayout.Target(
                    rect: Rect(row: row, column: rect.column, height: 1, width: rect.width), action: .row(index)))
            if isSelected { layout.focus = CellPosition(row: row, column: rect.column + 5) }
            let pointer = isSelected ? theme.glyphs.pointer : " "
            let mark = item.isCurrent ? theme.glyphs.current : " "
            let head = " \(pointer) \(mark) " + TextLayout.pad(item.title, toWidth: titleWidth) + "  "
            let detailWidth = rect.width - TextLayout.width(of: head)
            let line = TextLayout.pad(
                head + TextLayout.truncate(item.detail, toWidth: detailWidth), toWidth: rect.width)
            if isSelected {
                terminal.put(line, row: row, column: rect.column, style: theme.selection)
            } else {
                terminal.put(
                    TextLayout.pad(head, toWidth: rect.width), row: row, column: rect.column, style: theme.text)
                if item.isCurrent {
                    terminal.put(mark, row: row, column: rect.column + 3, style: theme.success)
                }
                terminal.put(
                    TextLayout.truncate(item.detail, toWidth: detailWidth), row: row,
                    column: rect.column + TextLayout.width(of: head), style: theme.muted)
            }
        }
        return layout
    }
}
