import FactKit
import WeftApp
import WeftInitializer
import WeftTerminal

extension AppModel {
    /// Where keys are read now: the help overlay, else the screen underneath.
    var keyContext: KeyContext {
        isHelpVisible ? .help : screenKeyContext
    }

    /// The keys of the screen shown: the panel, else the stage.
    var screenKeyContext: KeyContext {
        switch panel {
        case .environmentMenu?: return .environmentMenu
        case .diagnostics?: return .diagnostics
        case .history?: return .history
        case nil: break
        }
        switch stage {
        case .splash: return .splash
        case .main: return .main
        case .error(let state): return .error(environment: state.environment)
        }
    }

    /// Handles one key as ``KeyMap`` binds it in the current ``keyContext``: changes state at
    /// once and starts any work the key asks for.
    ///
    /// - Returns: ``TerminalApp/Control/quit(exitCode:)`` for `q` and Ctrl-C (130); `q`
    ///   exits 0, or from the error screen with the failure's status (1, or 2 when the
    ///   failure is in the person's input), as plain mode would. The caller then awaits
    ///   ``shutdown()``.
    func handle(_ key: Key) -> TerminalApp.Control {
        defer { changed() }
        guard let action = KeyMap.action(for: key, in: keyContext) else { return .proceed }
        switch action {
        case .quit:
            if case .error(let state) = stage {
                let status = state.failure.map { ExitStatus(failingWith: $0.error) } ?? .initializationFailed
                return .quit(exitCode: status.rawValue)
            }
            return .quit(exitCode: ExitStatus.success.rawValue)
        case .interrupt:
            return .quit(exitCode: Interruption.interrupt.exitCode)
        case .showHelp:
            setHelpVisible(true)
        case .closeHelp:
            setHelpVisible(false)
        case .nextFact:
            fetchNextFact()
        case .chooseEnvironment:
            openEnvironmentMenu()
        case .diagnostics:
            setPanel(.diagnostics)
        case .retry:
            if case .main(let state) = stage {
                reinitialize(into: state.dependencies.environment.name, isRetry: true)
                break
            }
            guard case .error(let state) = stage else { break }
            reinitialize(
                into: state.failure?.process.environment?.name ?? state.failure?.process.requestedEnvironment
                    ?? options.environmentName,
                isRetry: true)
        case .closePanel:
            setPanel(nil)
        case .showHistory:
            openHistory()
        case .copyFact:
            copyFact()
        case .select:
            guard case .environmentMenu(let menu)? = panel else { break }
            setPanel(nil)
            if let selected = menu.selected { reinitialize(into: selected.name) }
        case .moveUp, .moveDown, .pageUp, .pageDown, .moveFirst, .moveLast:
            guard let move = ListPosition.Move(action) else { break }
            switch panel {
            case .environmentMenu(var menu)?:
                menu.move(move)
                setPanel(.environmentMenu(menu))
            case .history(var history)?:
                history.move(move)
                setPanel(.history(history))
            case .diagnostics?:
                scroll(move, limit: diagnosticsView.maxScroll(in: viewSize))
            case nil:
                if case .error = stage, let view = currentScreen() as? ErrorView {
                    scroll(move, limit: view.maxScroll(in: viewSize))
                }
            }
        }
        return .proceed
    }
}
