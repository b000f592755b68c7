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
        case .history(let history)?: return history.isOpen ? .historyEntry : .history
        case .startup?: return .startup
        case nil: break
        }
        switch stage {
        case .splash: return .splash
        case .main: return .main
        case .error(let state): return .error(environment: state.environment)
        }
    }

    /// Handles one key as ``KeyMap`` binds it in the current ``keyContext``: changes state at
    /// once and starts any work the key asks for. While the command line is open, keys edit
    /// it (``handleCommandLine(_:)``); a mouse report acts on the last frame drawn
    /// (``handleMouse(_:)``).
    ///
    /// - Returns: ``TerminalApp/Control/quit(exitCode:)`` for `q` and Ctrl-C (130); `q`
    ///   exits 0, or from the error screen with the failure's status (1, or 2 when the
    ///   failure is in the person's input), as plain mode would. The caller then awaits
    ///   ``shutdown()``.
    func handle(_ key: Key) -> TerminalApp.Control {
        defer { changed() }
        // Below the smallest layout the prompt is not drawn: keys go where the notice says.
        if commandPrompt != nil, !viewSize.fits(TooSmallNotice.minimumSize) { commandPrompt = nil }
        if commandPrompt != nil { return handleCommandLine(key) }
        if case .mouse(let event) = key { return handleMouse(event) }
        guard let action = KeyMap.action(for: key, in: keyContext) else { return .proceed }
        return perform(action)
    }

    /// Does what `action` asks in the current context, as its key would.
    func perform(_ action: KeyAction) -> TerminalApp.Control {
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
        case .showStartup:
            setPanel(.startup)
        case .openCommandLine:
            commandPrompt = CommandPrompt(earlier: commandHistory)
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
            if case .history(var history)? = panel, history.isOpen {
                history.close()
                setPanel(.history(history))
            } else {
                setPanel(nil)
            }
        case .showHistory:
            openHistory()
        case .copyFact:
            copyFact()
        case .select:
            guard case .environmentMenu(let menu)? = panel else { break }
            setPanel(nil)
            if let selected = menu.selected { reinitialize(into: selected.name) }
        case .openEntry:
            guard case .history(var history)? = panel else { break }
            history.open()
            setPanel(.history(history))
        case .moveUp, .moveDown, .pageUp, .pageDown, .moveFirst, .moveLast:
            guard let move = ListPosition.Move(action) else { break }
            if isHelpVisible {
                helpScroll = Self.scrolled(helpScroll, by: move, limit: helpMaxScroll)
                break
            }
            switch panel {
            case .environmentMenu(var menu)?:
                menu.move(move)
                setPanel(.environmentMenu(menu))
            case .history(var history)?:
                history.move(move)
                setPanel(.history(history))
            case .diagnostics?:
                scroll(move, limit: diagnosticsView.maxScroll(in: viewSize))
            case .startup?:
                scroll(move, limit: startupView.maxScroll(in: viewSize))
            case nil:
                if case .error = stage, let view = currentScreen() as? ErrorView {
                    scroll(move, limit: view.maxScroll(in: viewSize))
                }
            }
        }
        return .proceed
    }

    /// `value` moved as `move` asks, within `0...limit`.
    static func scrolled(_ value: Int, by move: ListPosition.Move, limit: Int) -> Int {
        var position = ListPosition(count: limit + 1, index: value)
        position.apply(move)
        return position.index
    }

    // MARK: - Mouse

    /// Rows the wheel scrolls text by, per step.
    static let wheelStep = 3

    /// A click or wheel step on the last frame drawn: a click on a key-bar hint does what its
    /// key does when the button comes up on it (as in htop: so that quitting leaves no report
    /// of the release behind); on a list or menu row the press selects the row, and a double
    /// click opens it (Enter); the wheel moves lists one row and scrolls text three. Anything
    /// else does nothing.
    func handleMouse(_ event: MouseEvent) -> TerminalApp.Control {
        let cell = CellPosition(row: event.row, column: event.column)
        switch event.kind {
        case .wheelUp, .wheelDown:
            let action: KeyAction = event.kind == .wheelUp ? .moveUp : .moveDown
            // Only where the arrows move or scroll something.
            guard KeyMap.action(for: event.kind == .wheelUp ? .up : .down, in: keyContext) == action else {
                return .proceed
            }
            let isList: Bool
            switch panel {
            case .environmentMenu?, .history?: isList = !isHelpVisible
            default: isList = false
            }
            for _ in 0..<(isList ? 1 : Self.wheelStep) { _ = perform(action) }
            return .proceed
        case .release(button: 0):
            defer { pressedKey = nil }
            guard let pressed = pressedKey, case .key(let action) = pressed, lastLayout?.action(at: cell) == pressed
            else { return .proceed }
            return perform(action)
        case .press(button: 0):
            pressedKey = nil
            // The second click of a double click opens what the first one selected, wherever
            // that row went: selecting it may have moved the box (a longer description).
            if event.clickCount >= 2, let last = lastRowClick, last.cell == cell {
                return clickRow(last.index, cell: cell, opens: true)
            }
            switch lastLayout?.action(at: cell) {
            case .key(let action)?:
                pressedKey = .key(action)
            case .row(let index)?:
                return clickRow(index, cell: cell, opens: false)
            case nil:
                lastRowClick = nil
            }
            return .proceed
        case .press, .release:
            return .proceed
        }
    }

    /// Selects row `index` of the menu or history list shown, and opens it when `opens`.
    private func clickRow(_ index: Int, cell: CellPosition, opens: Bool) -> TerminalApp.Control {
        lastRowClick = (cell, index)
        switch panel {
        case .environmentMenu(var menu)?:
            menu.select(index)
            setPanel(.environmentMenu(menu))
            if opens { return perform(.select) }
        case .history(var history)? where !history.isOpen:
            history.select(index)
            setPanel(.history(history))
            if opens { return perform(.openEntry) }
        default:
            break
        }
        return .proceed
    }

    // MARK: - Command line

    /// A key while the command line is open: characters are typed, ←→ Home End move the
    /// caret, Backspace deletes (and closes an empty line), Tab completes, ↑↓ bring back earlier
    /// commands, Enter runs the command, Esc closes the line. Ctrl-C still quits; the mouse does
    /// nothing.
    func handleCommandLine(_ key: Key) -> TerminalApp.Control {
        guard var prompt = commandPrompt else { return .proceed }
        switch key {
        case .char(let character):
            prompt.insert(character)
        case .backspace:
            if !prompt.deleteBackward(), prompt.text.isEmpty {
                commandPrompt = nil
                return .proceed
            }
        case .left: prompt.moveCaret(by: -1)
        case .right: prompt.moveCaret(by: 1)
        case .home: prompt.moveCaret(toEnd: false)
        case .end: prompt.moveCaret(toEnd: true)
        case .up: prompt.browse(older: true)
        case .down: prompt.browse(older: false)
        case .tab: prompt.complete(environments: environmentNames)
        case .escape:
            commandPrompt = nil
            return .proceed
        case .ctrlC:
            return .quit(exitCode: Interruption.interrupt.exitCode)
        case .enter:
            commandHistory = prompt.remembered()
            switch AppCommand.parse(prompt.text, environments: environmentNames) {
            case .success(let command):
                if let problem = unavailability(of: command) {
                    prompt.message = problem
                    prompt.isProblem = true
                } else {
                    commandPrompt = nil
                    return run(command)
                }
            case .failure(let problem):
                prompt.message = problem.description
                prompt.isProblem = true
            }
        case .pageUp, .pageDown, .resize, .none, .unknown, .mouse:
            break
        }
        commandPrompt = prompt
        return .proceed
    }

    /// The environments `env` can switch to now: the catalog's names, or none when no catalog
    /// is loaded (the name is then checked when the run starts).
    var environmentNames: [String] {
        switch stage {
        case .splash: []
        case .main(let state): state.dependencies.catalog.environments.map(\.name)
        case .error(let state): state.failure?.process.catalog?.environments.map(\.name) ?? []
        }
    }

    /// Why `command` cannot run now, or `nil` when it can.
    func unavailability(of command: AppCommand) -> String? {
        switch (command, stage) {
        case (.environment, .splash), (.retry, .splash):
            return "Start-up is running: wait for it, or q to cancel and quit"
        case (.next, .splash), (.history, .splash):
            return "No fact yet: start-up is running"
        case (.next, .error), (.history, .error):
            return "No fact: start-up failed. Try retry, or env NAME"
        case (.startup, .splash):
            return "Start-up is running: its critical chain is known once it ends"
        default:
            return nil
        }
    }

    /// Runs `command` as its key would.
    func run(_ command: AppCommand) -> TerminalApp.Control {
        setHelpVisible(false)
        switch command {
        case .environment(let name):
            setPanel(nil)
            reinitialize(into: name)
            return .proceed
        case .retry: return perform(.retry)
        case .next:
            setPanel(nil)
            return perform(.nextFact)
        case .history: return perform(.showHistory)
        case .diagnostics: return perform(.diagnostics)
        case .startup: return perform(.showStartup)
        case .help: return perform(.showHelp)
        case .quit: return perform(.quit)
        }
    }
}
