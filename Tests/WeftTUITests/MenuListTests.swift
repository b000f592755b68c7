import Testing

@testable import WeftTUI
@testable import WeftTerminal

@MainActor
@Suite("Menu list")
struct MenuListTests {
    let items = (0..<10).map { MenuList.Item(title: "env\($0)", detail: "description \($0)", isCurrent: $0 == 1) }

    @Test("The selected row is highlighted across the width and pointed at")
    func selected() throws {
        let buffer = ScreenBuffer(size: TerminalSize(rows: 10, columns: 40))
        MenuList(items: items, selectedIndex: 2).draw(
            in: Rect(row: 0, column: 0, height: 10, width: 40), on: buffer, theme: Theme(isMonochrome: false))
        #expect(buffer.text(at: 2).hasPrefix(" › "))
        #expect(buffer.style(row: 2, column: 39)?.role == .selection)
        #expect(buffer.style(row: 3, column: 39)?.role != .selection)
        #expect(buffer.text(at: 1).contains("● env1"))
        #expect(buffer.text(at: 3).contains("description 3"))
    }

    @Test("Scrolling keeps the selection visible")
    func scrolls() {
        let list = MenuList(items: items, selectedIndex: 8)
        #expect(list.firstVisibleIndex(visibleRows: 4) == 5)
        #expect(MenuList(items: items, selectedIndex: 1).firstVisibleIndex(visibleRows: 4) == 0)
        let buffer = ScreenBuffer(size: TerminalSize(rows: 4, columns: 40))
        list.draw(in: Rect(row: 0, column: 0, height: 4, width: 40), on: buffer, theme: Theme(isMonochrome: true))
        #expect(buffer.text(at: 3).contains("env8"))
        #expect(buffer.style(row: 3, column: 0) == TextStyle(isBold: true, isReverse: true))
    }
}
