extension AppModel {
    /// Handles one key: changes state at once and starts any work the key asks for.
    ///
    /// - Returns: ``TerminalApp/Control/quit(exitCode:)`` for `q` (0) and Ctrl-C (130);
    ///   the caller then awaits ``shutdown()``.
    public func handle(_ key: Key) -> TerminalApp.Control {
        defer { changed() }
        switch key {
        case .ctrlC:
            return .quit(exitCode: Interruption.interrupt.exitCode)
        case .resize, .none:
            return .proceed  // the next frame is laid out for the new size
        default:
            break
        }
        if isHelpVisible {
            if key == .escape || key == .char("?") || key == .char("q") { setHelpVisible(false) }
            return .proceed
        }
        switch panel {
        case .environmentMenu(let menu)?:
            return handleMenu(key, menu: menu)
        case .diagnostics?:
            switch key {
            case .escape, .char("d"): setPanel(nil)
            case .char("?"): setHelpVisible(true)
            case .char("q"): return .quit(exitCode: 0)
            default: break
            }
            return .proceed
        case nil:
            break
        }
        switch stage {
        case .splash:
            switch key {
            case .char("q"): return .quit(exitCode: 0)
            case .char("?"): setHelpVisible(true)
            default: break  // never a second run while one is in flight
            }
        case .main:
            switch key {
            case .char("n"): fetchNextFact()
            case .char("e"): openEnvironmentMenu()
            case .char("d"): setPanel(.diagnostics)
            case .char("?"): setHelpVisible(true)
            case .char("q"): return .quit(exitCode: 0)
            default: break
            }
        case .error(let state):
            switch key {
            case .char("r"): reinitialize(into: state.failure?.process.environment?.name ?? state.failure?.process.requestedEnvironment ?? options.environmentName)
            case .char("e"): openEnvironmentMenu()
            case .char("d"): setPanel(.diagnostics)
            case .char("?"): setHelpVisible(true)
            case .char("q"): return .quit(exitCode: 0)
            default: break
            }
        }
        return .proceed
    }

    private func handleMenu(_ key: Key, menu: EnvironmentMenu) -> TerminalApp.Control {
        var menu = menu
        switch key {
        case .up, .char("k"):
            menu.move(by: -1)
            setPanel(.environmentMenu(menu))
        case .down, .char("j"):
            menu.move(by: 1)
            setPanel(.environmentMenu(menu))
        case .enter:
            setPanel(nil)
            if let selected = menu.selected { reinitialize(into: selected.name) }
        case .escape:
            setPanel(nil)
        case .char("?"):
            setHelpVisible(true)
        case .char("q"):
            return .quit(exitCode: 0)
        default:
            break
        }
        return .proceed
    }
}
