import WeftApp
import WeftTerminal

/// What a key asks the app to do.
enum KeyAction: Sendable, Hashable {
    /// Quit with status 0.
    case quit
    /// Quit as if interrupted (Ctrl-C read as a key): status 130.
    case interrupt
    /// Open the help overlay.
    case showHelp
    /// Close the help overlay.
    case closeHelp
    /// Fetch the next fact through the repository.
    case nextFact
    /// Open the environment menu.
    case chooseEnvironment
    /// Open the diagnostics panel.
    case diagnostics
    /// Re-initialize in the environment that failed.
    case retry
    /// Close the panel on top (diagnostics, or the menu without switching).
    case closePanel
    /// Move the menu's highlight up.
    case moveUp
    /// Move the menu's highlight down.
    case moveDown
    /// Switch to the highlighted environment.
    case select
    /// Open the history list.
    case showHistory
    /// Copy the fact shown to the clipboard.
    case copyFact
    /// Move or scroll one page up.
    case pageUp
    /// Move or scroll one page down.
    case pageDown
    /// Move or scroll to the first row.
    case moveFirst
    /// Move or scroll to the last row.
    case moveLast
    /// Open the command line (`:`).
    case openCommandLine
    /// Open the highlighted history entry: the whole fact and where it was seen.
    case openEntry
    /// Show the last start-up's critical chain.
    case showStartup
}

/// Where keys are read: the stage, the panel over it, or the help overlay over both.
enum KeyContext: Sendable, Hashable {
    /// The splash, while a run is in flight.
    case splash
    /// The fact.
    case main
    /// The error screen of the run in `environment`.
    case error(environment: String)
    /// The environment menu.
    case environmentMenu
    /// The diagnostics panel.
    case diagnostics
    /// The history list.
    case history
    /// One history entry, opened.
    case historyEntry
    /// The last start-up's critical chain.
    case startup
    /// The help overlay.
    case help
}

/// One key binding: the keys, what they do, and how the hint bar and the help overlay show them.
struct KeyBinding: Sendable, Hashable {
    /// The keys that trigger the action.
    var keys: [Key]
    /// What they do.
    var action: KeyAction
    /// The entry in the key-hint bar, or `nil` when the bar leaves the binding out.
    var bar: KeyHint?
    /// The entry in the help overlay, or `nil` when help leaves the binding out.
    var help: KeyHint?
}

/// The app's keys, in one table: key handling (``action(for:in:)``), the key-hint bar
/// (``barHints(in:)``), the help overlay (``helpEntries(in:)``) and the advice that names a
/// key (``FailureAdvice/Phrasing/keys``) all read it.
enum KeyMap {
    /// The bindings of `context`, in display order.
    static func bindings(in context: KeyContext) -> [KeyBinding] {
        switch context {
        case .splash:
            [
                KeyBinding(
                    keys: [.char("q")], action: .quit, bar: KeyHint("q", "quit"),
                    help: KeyHint("q", "cancel start-up and quit")),
                KeyBinding(keys: [.ctrlC], action: .interrupt, help: KeyHint("Ctrl-C", "cancel start-up and quit")),
                showHelp, command,
            ]
        case .main:
            [
                KeyBinding(
                    keys: [.char("n")], action: .nextFact, bar: KeyHint("n", "next"),
                    help: KeyHint("n", "next fact (same environment, no restart)")),
                KeyBinding(
                    keys: [.char("e")], action: .chooseEnvironment, bar: KeyHint("e", "environment"),
                    help: KeyHint("e", "choose another environment")),
                KeyBinding(
                    keys: [.char("h")], action: .showHistory, bar: KeyHint("h", "history"),
                    help: KeyHint("h", "history: every fact shown, times seen, when, where")),
                KeyBinding(
                    keys: [.char("y")], action: .copyFact, bar: KeyHint("y", "copy"),
                    help: KeyHint("y", "copy the fact to the clipboard (OSC 52)")),
                KeyBinding(
                    keys: [.char("d")], action: .diagnostics, bar: KeyHint("d", "diagnostics"),
                    help: KeyHint("d", "diagnostics: services and last run")),
                KeyBinding(
                    keys: [.char("r")], action: .retry,
                    help: KeyHint("r", "start up again here (retries the history when it is unavailable)")),
                showHelp, command, quit, interrupt,
            ]
        case .error(let environment):
            [
                KeyBinding(
                    keys: [.char("r")], action: .retry, bar: KeyHint("r", "retry"),
                    help: KeyHint("r", "retry \(environment)")),
                KeyBinding(
                    keys: [.char("e")], action: .chooseEnvironment, bar: KeyHint("e", "environment"),
                    help: KeyHint("e", "choose another environment, then retry")),
                KeyBinding(
                    keys: [.char("d")], action: .diagnostics, bar: KeyHint("d", "details"),
                    help: KeyHint("d", "details: services and last run")),
            ] + scrolling("scroll the error text") + [showHelp, command, quit, interrupt]
        case .environmentMenu:
            // Enter and Esc first: where the bar is short, they are what it keeps (Enter alone
            // at 40 columns).
            [
                KeyBinding(
                    keys: [.enter], action: .select, bar: KeyHint("Enter", "select"),
                    help: KeyHint("Enter", "switch to the highlighted environment")),
                KeyBinding(
                    keys: [.escape], action: .closePanel, bar: KeyHint("Esc", "cancel"),
                    help: KeyHint("Esc", "back, without switching")),
                KeyBinding(
                    keys: [.up, .char("k")], action: .moveUp, bar: KeyHint("↑↓", "move"),
                    help: KeyHint("↑ k", "move up")),
                KeyBinding(keys: [.down, .char("j")], action: .moveDown, help: KeyHint("↓ j", "move down")),
                pageUp, pageDown, first, last,
                showHelp, command, quit, interrupt,
            ]
        case .diagnostics:
            [
                KeyBinding(
                    keys: [.escape, .char("d")], action: .closePanel, bar: KeyHint("Esc", "back"),
                    help: KeyHint("Esc d", "back"))
            ]
                + scrolling("scroll") + [showHelp, command, quit, interrupt]
        case .history:
            [
                KeyBinding(
                    keys: [.up, .char("k")], action: .moveUp, bar: KeyHint("↑↓", "move"),
                    help: KeyHint("↑ k", "move up")),
                KeyBinding(keys: [.down, .char("j")], action: .moveDown, help: KeyHint("↓ j", "move down")),
                pageUp, pageDown, first, last,
                KeyBinding(
                    keys: [.enter], action: .openEntry, bar: KeyHint("Enter", "open"),
                    help: KeyHint("Enter", "open the highlighted fact: all of it, when and where")),
                KeyBinding(
                    keys: [.escape, .char("h")], action: .closePanel, bar: KeyHint("Esc", "back"),
                    help: KeyHint("Esc h", "back")),
                showHelp, command, quit, interrupt,
            ]
        case .historyEntry:
            [
                KeyBinding(
                    keys: [.escape, .enter], action: .closePanel, bar: KeyHint("Esc", "back"),
                    help: KeyHint("Esc Enter", "back to the list")),
                showHelp, command, quit, interrupt,
            ]
        case .startup:
            [
                KeyBinding(
                    keys: [.escape], action: .closePanel, bar: KeyHint("Esc", "back"), help: KeyHint("Esc", "back"))
            ]
                + scrolling("scroll") + [showHelp, command, quit, interrupt]
        case .help:
            [
                KeyBinding(
                    keys: [.escape, .char("?"), .char("q")], action: .closeHelp, bar: KeyHint("Esc ? q", "close")),
                KeyBinding(keys: [.ctrlC], action: .interrupt, bar: KeyHint("Ctrl-C", "quit")),
                KeyBinding(keys: [.up, .char("k")], action: .moveUp, bar: KeyHint("↑↓", "scroll")),
                KeyBinding(keys: [.down, .char("j")], action: .moveDown),
                pageUp, pageDown, first, last,
            ]
        }
    }

    /// What `key` does in `context`, or `nil` when it does nothing there.
    static func action(for key: Key, in context: KeyContext) -> KeyAction? {
        bindings(in: context).first { $0.keys.contains(key) }?.action
    }

    /// The key-hint bar of `context`, most important first.
    static func barHints(in context: KeyContext) -> [KeyHint] {
        bindings(in: context).compactMap { binding in
            // `↑↓` stands for two keys: a click on it could mean either, so it does nothing.
            binding.bar.map { KeyHint($0.key, $0.label, action: binding.action == .moveUp ? nil : binding.action) }
        }
    }

    /// The help overlay's entries for `context`: every key and what it does.
    static func helpEntries(in context: KeyContext) -> [KeyHint] {
        bindings(in: context).compactMap(\.help)
    }

    /// The key shown for `action` in `context`, such as `r` for ``KeyAction/retry`` on the
    /// error screen; `nil` when the context has no key for it.
    static func key(for action: KeyAction, in context: KeyContext) -> String? {
        bindings(in: context).first { $0.action == action }.flatMap { $0.bar?.key ?? $0.help?.key }
    }

    /// One line per screen listing its keys, for `weft --help`.
    static var summary: [String] {
        let screens: [(String, KeyContext)] = [
            ("main", .main), ("error", .error(environment: "it")), ("menus, lists", .environmentMenu),
            ("diagnostics", .diagnostics), ("history", .history), ("start-up", .splash),
        ]
        return screens.map { name, context in
            let all = bindings(in: context)
            var hints = all.compactMap(\.bar).map { "\($0.key) \($0.label)" }
            if all.contains(where: { $0.action == .pageDown }) {
                hints.insert("PgUp PgDn Home End", at: (hints.firstIndex { $0.hasPrefix("↑↓") } ?? hints.count - 1) + 1)
            }
            return "\(name): " + hints.joined(separator: " · ")
        } + [
            "every screen but help: : command line (\(AppCommand.names.joined(separator: ", "))), Tab completes, ↑↓ earlier ones",
            "mouse: click a key in the bar or a row, double-click opens it, the wheel scrolls (--no-mouse: off)",
        ]
    }

    /// Arrows, pages, Home and End scrolling a screen of text.
    private static func scrolling(_ label: String) -> [KeyBinding] {
        [
            KeyBinding(
                keys: [.up, .char("k")], action: .moveUp, bar: KeyHint("↑↓", "scroll"),
                help: KeyHint("↑ k", "\(label) up")),
            KeyBinding(keys: [.down, .char("j")], action: .moveDown, help: KeyHint("↓ j", "\(label) down")),
            pageUp, pageDown, first, last,
        ]
    }

    private static let pageUp = KeyBinding(keys: [.pageUp], action: .pageUp, help: KeyHint("PgUp", "one page up"))
    private static let pageDown = KeyBinding(
        keys: [.pageDown], action: .pageDown, help: KeyHint("PgDn", "one page down"))
    private static let first = KeyBinding(keys: [.home], action: .moveFirst, help: KeyHint("Home", "to the top"))
    private static let last = KeyBinding(keys: [.end], action: .moveLast, help: KeyHint("End", "to the bottom"))

    private static let command = KeyBinding(
        keys: [.char(":")], action: .openCommandLine,
        help: KeyHint(":", "command line: type a command (Tab completes, ↑↓ earlier ones)"))
    private static let showHelp = KeyBinding(
        keys: [.char("?")], action: .showHelp, bar: KeyHint("?", "help"), help: KeyHint("?", "show or hide this help"))
    private static let quit = KeyBinding(
        keys: [.char("q")], action: .quit, bar: KeyHint("q", "quit"), help: KeyHint("q", "quit"))
    /// Ctrl-C read as a key quits from every screen; only the splash lists it.
    private static let interrupt = KeyBinding(keys: [.ctrlC], action: .interrupt)
}
