import WeftTerminal

/// The environment picker: every environment with its description, the current one marked,
/// the highlighted one selected by Enter.
struct EnvironmentMenuView: Screen {
    /// One environment.
    struct Option: Sendable, Hashable {
        /// Its name, such as `embedded`.
        var name: String
        /// A one-line description.
        var detail: String

        /// Creates an option.
        init(name: String, detail: String) {
            self.name = name
            self.detail = detail
        }
    }

    /// The environments, in display order.
    var options: [Option]
    /// The environment in use (marked), if any.
    var currentEnvironment: String?
    /// The highlighted option's index.
    var selectedIndex: Int
    /// The first option shown last time.
    var top: Int

    /// Creates a menu view.
    init(options: [Option], currentEnvironment: String?, selectedIndex: Int, top: Int = 0) {
        self.options = options
        self.currentEnvironment = currentEnvironment
        self.selectedIndex = selectedIndex
        self.top = top
    }

    /// `Environments`.
    var title: String { "Environments" }
    /// The environment in use.
    var environmentName: String? { currentEnvironment }
    /// Move, select, cancel, quit.
    var keyHints: [KeyHint] { KeyMap.barHints(in: .environmentMenu) }

    /// The list widget for the options.
    var menu: MenuList {
        MenuList(
            items: options.map {
                MenuList.Item(title: $0.name, detail: $0.detail, isCurrent: $0.name == currentEnvironment)
            },
            selectedIndex: selectedIndex, top: top
        )
    }

    /// Draws the boxed list, the highlighted environment's full description under it (the
    /// rows truncate long ones), and a legend, centred. Compact: the list alone, as many rows
    /// as fit.
    @MainActor
    func drawBody(in area: Rect, on terminal: any Terminal, theme: Theme) -> FrameLayout {
        let compact = LayoutSize.isCompact(area)
        let width = min(area.width - (compact ? 2 : 4), 72)
        let detailWidth = width - 6
        let selected = options.indices.contains(selectedIndex) ? options[selectedIndex] : nil
        let chrome = compact ? 2 : 2 + 4 + 2  // margin, borders and padding, legend
        let listRows = max(1, min(options.count, area.height - chrome))
        // Room left for the description: below the list, above the legend.
        let spare = area.height - 2 - (listRows + 4) - 2
        var detail = selected.map { TextLayout.wrap($0.detail, toWidth: detailWidth) } ?? []
        if compact || spare < 2 || detail.isEmpty {
            detail = []
        } else if detail.count > spare - 1 {
            detail = Array(detail.prefix(spare - 1))
            detail[detail.count - 1] = TextLayout.truncate(detail[detail.count - 1] + " …", toWidth: detailWidth)
        }
        let boxHeight = listRows + (compact ? 2 : 4) + (detail.isEmpty ? 0 : detail.count + 1)
        let row =
            area.row + (compact ? max(0, (area.height - boxHeight) / 2) : max(1, (area.height - boxHeight - 2) / 2))
        let box = Rect(row: row, column: area.column + (area.width - width) / 2, height: boxHeight, width: width)
        let inner = Box(title: "Choose environment").draw(in: box, on: terminal, theme: theme).insetBy(
            rows: compact ? 0 : 1, columns: 0)
        let layout = menu.draw(
            in: Rect(row: inner.row, column: inner.column, height: listRows, width: inner.width - 1), on: terminal,
            theme: theme)
        if options.count > listRows {
            let first = menu.firstVisibleIndex(visibleRows: listRows)
            ScrollMark(
                hiddenAbove: first > 0, hiddenBelow: first + listRows < options.count,
                text: "\(selectedIndex + 1)/\(options.count)"
            ).draw(on: box, on: terminal, theme: theme)
        }
        for (offset, line) in detail.enumerated() {
            terminal.put(line, row: inner.row + listRows + 1 + offset, column: inner.column + 2, style: theme.muted)
        }
        if !compact {
            let legend = "\(theme.glyphs.current) current   \(theme.glyphs.pointer) selected   Enter re-initializes"
            terminal.put(
                legend, row: box.bottom + 1,
                column: TextLayout.centeredColumn(of: legend, inWidth: area.width, from: area.column),
                style: theme.muted)
        }
        return layout
    }
}
