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
                KeyBinding(keys: [.char("q")], action: .quit, bar: KeyHint("q", "quit"), help: KeyHint("q", "cancel start-up and quit")),
                KeyBinding(keys: [.ctrlC], action: .interrupt, help: KeyHint("Ctrl-C", "cancel start-up and quit")),
                showHelp,
            ]
        case .main:
            [
                KeyBinding(keys: [.char("n")], action: .nextFact, bar: KeyHint("n", "next"),
                           help: KeyHint("n", "next fact (same environment, no restart)")),
                KeyBinding(keys: [.char("e")], action: .chooseEnvironment, bar: KeyHint("e", "environment"),
                           help: KeyHint("e", "choose another environment")),
                KeyBinding(keys: [.char("d")], action: .diagnostics, bar: KeyHint("d", "diagnostics"),
                           help: KeyHint("d", "diagnostics: services and last run")),
                showHelp, quit, interrupt,
            ]
        case .error(let environment):
            [
                KeyBinding(keys: [.char("r")], action: .retry, bar: KeyHint("r", "retry"), help: KeyHint("r", "retry \(environment)")),
                KeyBinding(keys: [.char("e")], action: .chooseEnvironment, bar: KeyHint("e", "environment"),
                           help: KeyHint("e", "choose another environment, then retry")),
                KeyBinding(keys: [.char("d")], action: .diagnostics, bar: KeyHint("d", "details"),
                           help: KeyHint("d", "details: services and last run")),
                showHelp, quit, interrupt,
            ]
        case .environmentMenu:
            [
                KeyBinding(keys: [.up, .char("k")], action: .moveUp, bar: KeyHint("↑↓", "move"), help: KeyHint("↑ k", "move up")),
                KeyBinding(keys: [.down, .char("j")], action: .moveDown, help: KeyHint("↓ j", "move down")),
                KeyBinding(keys: [.enter], action: .select, bar: KeyHint("Enter", "select"),
                           help: KeyHint("Enter", "switch to the highlighted environment")),
                KeyBinding(keys: [.escape], action: .closePanel, bar: KeyHint("Esc", "cancel"), help: KeyHint("Esc", "back, without switching")),
                showHelp, quit, interrupt,
            ]
        case .diagnostics:
            [
                KeyBinding(keys: [.escape, .char("d")], action: .closePanel, bar: KeyHint("Esc", "back"), help: KeyHint("Esc d", "back")),
                showHelp, quit, interrupt,
            ]
        case .help:
            [
                KeyBinding(keys: [.escape, .char("?"), .char("q")], action: .closeHelp, bar: KeyHint("Esc ? q", "close")),
                KeyBinding(keys: [.ctrlC], action: .interrupt, bar: KeyHint("Ctrl-C", "quit")),
            ]
        }
    }

    /// What `key` does in `context`, or `nil` when it does nothing there.
    static func action(for key: Key, in context: KeyContext) -> KeyAction? {
        bindings(in: context).first { $0.keys.contains(key) }?.action
    }

    /// The key-hint bar of `context`, most important first.
    static func barHints(in context: KeyContext) -> [KeyHint] {
        bindings(in: context).compactMap(\.bar)
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

    private static let showHelp = KeyBinding(
        keys: [.char("?")], action: .showHelp, bar: KeyHint("?", "help"), help: KeyHint("?", "show or hide this help"))
    private static let quit = KeyBinding(keys: [.char("q")], action: .quit, bar: KeyHint("q", "quit"), help: KeyHint("q", "quit"))
    /// Ctrl-C read as a key quits from every screen; only the splash lists it.
    private static let interrupt = KeyBinding(keys: [.ctrlC], action: .interrupt)
}
