import FactKit
import Weft
import WeftApp
import WeftInitializer
import WeftPrimitives
import WeftTerminal

extension AppModel {
    /// The frame to draw now: the panel or stage as a screen, with help on top when open and
    /// the command line at the bottom while it is.
    ///
    /// - Parameters:
    ///   - tick: the frame counter, which animates the splash spinners.
    ///   - size: the size the frame is drawn at; scrolling and paging keys stay within it.
    func frame(tick: Int, size: TerminalSize? = nil) -> TerminalApp.Frame {
        if let size { setViewSize(size) }
        let screen = currentScreen(tick: tick)
        let overlay = isHelpVisible ? helpOverlay(for: screen) : nil
        return TerminalApp.Frame(
            screen: screen, overlay: overlay, commandLine: commandPrompt.map { CommandLineView(prompt: $0) })
    }

    /// The help overlay over `screen`: its keys, then the commands.
    func helpOverlay(for screen: any Screen) -> HelpOverlay {
        HelpOverlay(
            title: "Keys · \(screen.title)", entries: helpEntries,
            commands: AppCommand.entries.map { entry in
                KeyHint(entry.argument.map { "\(entry.name) \($0)" } ?? entry.name, entry.summary)
            },
            scroll: helpScroll)
    }

    /// The furthest the help overlay scrolls at the current size.
    var helpMaxScroll: Int {
        helpOverlay(for: currentScreen()).maxScroll(
            in: Rect(row: 1, column: 0, height: viewSize.rows - 2, width: viewSize.columns))
    }

    /// The screen for the current panel, or else the current stage.
    func currentScreen(tick: Int = 0) -> any Screen {
        switch panel {
        case .environmentMenu(let menu)?:
            return EnvironmentMenuView(
                options: menu.environments.map { EnvironmentMenuView.Option(name: $0.name, detail: $0.description) },
                currentEnvironment: menu.current,
                selectedIndex: menu.selectedIndex, top: menu.position.top
            )
        case .diagnostics?:
            return diagnosticsView
        case .history(let history)?:
            return HistoryView(panel: history, environment: environmentNameShown)
        case .startup?:
            return startupView
        case nil:
            break
        }
        switch stage {
        case .splash(let progress):
            return splashView(progress, tick: tick)
        case .main(let state):
            return factView(state)
        case .error(let state):
            return ErrorView(
                environment: state.environment,
                stepTitle: state.stepTitle,
                phase: state.phase,
                message: state.message,
                hint: state.hint,
                elapsedMilliseconds: state.elapsed.displayMilliseconds,
                attempt: state.attempt,
                scroll: scroll,
                deadlineMilliseconds: state.deadline?.displayMilliseconds
            )
        }
    }

    /// The environment the title bar names.
    private var environmentNameShown: String? {
        switch stage {
        case .splash(let progress): progress.environment
        case .main(let state): state.dependencies.environment.name
        case .error(let state): state.environment
        }
    }

    /// Every key of the current screen and what it does, for the help overlay.
    var helpEntries: [KeyHint] {
        KeyMap.helpEntries(in: screenKeyContext)
    }

    /// The diagnostics of the last run: its container's registrations and step timeline.
    var diagnosticsView: DiagnosticsView {
        let container: Container?
        let report: InitializationReport?
        let environment: String?
        switch stage {
        case .splash(let progress):
            (container, report, environment) = (nil, nil, progress.environment)
        case .main(let state):
            (container, report, environment) = (
                state.dependencies.container, state.report, state.dependencies.environment.name
            )
        case .error(let state):
            (container, report, environment) = (
                state.failure?.process.container, state.failure?.report, state.environment
            )
        }
        let timings = report?.steps ?? []
        let critical = Set(report?.criticalChain.map(\.step.id) ?? [])
        let registrations = (container?.registrations ?? []).map { info in
            DiagnosticsView.Registration(
                name: info.key.description, lifetime: info.lifetime.description, isResolved: info.hasCachedInstance)
        }
        let timeline =
            timings
            .sorted { ($0.startOffset, $0.step.position) < ($1.startOffset, $1.step.position) }
            .map { timing in
                Timeline.Entry(
                    label: timing.step.title,
                    startMilliseconds: timing.startOffset.displayMilliseconds,
                    durationMilliseconds: timing.duration.displayMilliseconds,
                    isFailure: timing.outcome == .failed || timing.outcome == .cancelled,
                    isCritical: critical.contains(timing.step.id),
                    isSkipped: timing.outcome == .skipped
                )
            }
        return DiagnosticsView(
            environment: environment, registrations: registrations, timeline: timeline, scroll: scroll)
    }

    /// The critical chain of the last run that ended (`:startup`).
    var startupView: StartupView {
        let report: InitializationReport?
        switch stage {
        case .splash: report = nil
        case .main(let state): report = state.report
        case .error(let state): report = state.failure?.report
        }
        let chain = (report?.criticalChain ?? []).map { timing in
            StartupView.Link(
                title: timing.step.title, startMilliseconds: timing.startOffset.displayMilliseconds,
                durationMilliseconds: timing.duration.displayMilliseconds,
                isFailure: timing.outcome == .failed || timing.outcome == .cancelled,
                isAfterReady: timing.step.schedule == .afterReady)
        }
        // To ready, when the run got there: the steps after it did not keep anyone waiting.
        return StartupView(
            environment: environmentNameShown, chain: chain,
            totalMilliseconds: (report?.ready ?? report?.elapsed)?.displayMilliseconds ?? 0,
            stepCount: report?.steps.count ?? 0, scroll: scroll)
    }

    private func splashView(_ progress: SplashProgress, tick: Int) -> SplashView {
        SplashView(
            logo: logo,
            environment: progress.environment,
            attempt: progress.attempt,
            steps: progress.steps.map { step in
                let state: SplashView.StepState
                switch progress.progress(of: step) {
                case .pending: state = .pending
                case .running: state = .running(frame: tick)
                case .retrying(let attempt, let attempts):
                    state = .retrying(frame: tick, attempt: attempt, of: attempts)
                case .skipped: state = .skipped
                case .done(let duration): state = .done(milliseconds: duration.displayMilliseconds)
                case .failed, .cancelled: state = .failed
                }
                return SplashView.Step(title: step.title, phase: step.kindLabel, state: state)
            }
        )
    }

    private func factView(_ state: MainState) -> FactView {
        FactView(
            fact: state.fact.text,
            environment: state.dependencies.environment.name,
            latencyMilliseconds: state.fact.latency.displayMilliseconds,
            seenCount: state.fact.timesSeen,
            historyCount: state.fact.factsStored,
            notice: state.isFetching
                ? "fetching the next fact…" : state.notice ?? (isFinishingStartUp ? "finishing start-up…" : nil),
            degradedNotice: state.dependencies.historyProblem.map { _ in "history unavailable — r retries" }
        )
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest, clamped to `Int`.
    var displayMilliseconds: Int { Int(clamping: roundedMilliseconds) }
}
