import Foundation
import Testing
import WeftTerminal

@testable import FactKit
@testable import WeftTUI

/// Long lists: Home, End, PgUp, PgDn and a scroll indicator, on a 40-environment menu and a
/// long history.
@MainActor
@Suite("Long lists")
struct ListNavigationTests {
    static let forty: [Environment] = (0..<40).map { index in
        Environment(name: "env-\(index)", description: "Environment number \(index).", source: .embedded)
    }

    @Test("ListPosition: arrows, pages, Home and End stay within the list")
    func position() {
        var position = ListPosition(count: 40, index: 0)
        position.apply(.up)
        #expect(position.index == 0)
        position.apply(.pageDown)
        #expect(position.index == ListPosition.pageSize)
        position.apply(.last)
        #expect(position.index == 39)
        position.apply(.down)
        position.apply(.pageDown)
        #expect(position.index == 39)
        position.apply(.pageUp)
        #expect(position.index == 39 - ListPosition.pageSize)
        position.apply(.first)
        #expect(position.index == 0)
        var empty = ListPosition(count: 0)
        empty.apply(.last)
        #expect(empty.index == 0)
    }

    @Test("A 40-environment menu: End, PgUp, Home move the highlight; the indicator shows where it is")
    func fortyEnvironments() throws {
        var menu = EnvironmentMenu(environments: Self.forty, current: "env-0")
        func view() -> ScreenBuffer {
            render(
                EnvironmentMenuView(
                    options: menu.environments.map { .init(name: $0.name, detail: $0.description) },
                    currentEnvironment: menu.current, selectedIndex: menu.selectedIndex))
        }
        let top = view()
        #expect(top.contains(" ▼ 1/40 "), "\(top.rendered)")
        menu.move(.last)
        let bottom = view()
        #expect(bottom.contains(" ▲  40/40 "), "\(bottom.rendered)")
        #expect(try #require(bottom.lines.first { $0.contains("› ") }).contains("env-39"))
        menu.move(.pageUp)
        #expect(menu.selected?.name == "env-\(39 - ListPosition.pageSize)")
        #expect(view().contains(" ▲▼ \(40 - ListPosition.pageSize)/40 "), "\(view().rendered)")
        menu.move(.first)
        #expect(menu.selected?.name == "env-0")
        #expect(view().lines.contains { $0.contains("› ● env-0") })
    }

    @Test("The key map binds Home, End, PgUp and PgDn in the menu, history, error and diagnostics screens")
    func keys() {
        for context in [KeyContext.environmentMenu, .history, .error(environment: "broken"), .diagnostics] {
            #expect(KeyMap.action(for: .home, in: context) == .moveFirst)
            #expect(KeyMap.action(for: .end, in: context) == .moveLast)
            #expect(KeyMap.action(for: .pageUp, in: context) == .pageUp)
            #expect(KeyMap.action(for: .pageDown, in: context) == .pageDown)
            #expect(KeyMap.helpEntries(in: context).contains { $0.key == "PgDn" })
        }
        #expect(KeyMap.action(for: .char("h"), in: .main) == .showHistory)
        #expect(KeyMap.action(for: .char("y"), in: .main) == .copyFact)
        #expect(KeyMap.barHints(in: .main).map(\.key).contains("h"))
        #expect(KeyMap.barHints(in: .main).map(\.key).contains("y"))
    }

    @Test("The history list: columns, the highlighted fact in full, an indicator past one screen")
    func historyView() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let entries = (0..<30).map { index in
            HistoryEntry(
                text: "Fact number \(index) is about cats and how they sleep all day long, every day.",
                timesSeen: index % 3 + 1,
                lastSeen: now - Double(index * 60), environment: index % 2 == 0 ? "embedded" : "staging")
        }
        var panel = HistoryPanel()
        #expect(render(HistoryView(panel: panel, environment: "embedded")).contains("reading the history"))
        panel.show(.loaded(entries))
        let buffer = render(HistoryView(panel: panel, environment: "embedded"))
        expectChrome(buffer, screen: HistoryView(panel: panel, environment: "embedded"))
        #expect(buffer.contains("History · 30 facts, most recent first"))
        #expect(
            buffer.lines.contains {
                $0.contains("last seen") && $0.contains("seen") && $0.contains("environment") && $0.contains("fact")
            })
        #expect(
            buffer.lines.contains {
                $0.contains("› \(HistoryView.format(now))") && $0.contains("1×") && $0.contains("embedded")
                    && $0.contains("Fact number 0")
            })
        #expect(buffer.contains(" ▼ 1/30 "), "\(buffer.rendered)")
        panel.move(.last)
        let end = render(HistoryView(panel: panel, environment: "embedded"), size: Fixtures.small)
        #expect(end.lines.contains { $0.contains("›") && $0.contains("Fact number 29") }, "\(end.rendered)")
        #expect(end.contains("every day."), "the highlighted fact in full under the list")
        panel.show(.loaded([]))
        #expect(render(HistoryView(panel: panel, environment: nil)).contains("No facts yet"))
        panel.show(.failed("Cannot read the history: disk on fire"))
        #expect(render(HistoryView(panel: panel, environment: nil)).contains("disk on fire"))
    }
}
