import FactKit
import Foundation
import WeftApp
import WeftInitializer
import WeftTerminal

/// The terminal app's state machine: splash while a run is in flight, the fact once it
/// succeeded, the error when it failed, with the environment menu, diagnostics and help on top.
///
/// Keys go to ``handle(_:)``, which changes state at once and starts work (runs, fetches)
/// through ``AppEffects``; that work reports back on the main actor. ``frame(tick:)`` turns
/// the state into the screen to draw. At most one initialization run is ever in flight:
/// keys pressed while one runs never start another.
///
/// ```swift
/// let model = AppModel(options: options, logo: logo)
/// model.start()
/// let status = await TerminalApp(terminal: terminal).run(
///     onKey: { model.handle($0) }, frame: { model.frame(tick: $0) })
/// await model.shutdown()
/// ```
@MainActor
final class AppModel {
    /// What the person asked for on the command line.
    let options: AppOptions
    /// The logo shown on the splash, one string per line.
    let logo: [String]
    /// Where the app is.
    private(set) var stage: AppStage
    /// The panel shown over the stage, if any.
    private(set) var panel: AppPanel?
    /// Whether the help overlay is open.
    private(set) var isHelpVisible = false
    /// How many initialization runs were started.
    private(set) var runsStarted = 0
    /// How many initialization runs ended (succeeded, failed or cancelled).
    private(set) var runsCompleted = 0
    /// Whether ``shutdown()`` finished.
    private(set) var isShutDown = false
    /// How far the error text or diagnostics is scrolled, in rows; back to 0 when the screen changes.
    private(set) var scroll = 0
    /// The size the last frame was drawn at, for paging and scrolling limits.
    private(set) var viewSize = TerminalSize(rows: 24, columns: 80)
    /// The command line, while it is open.
    var commandPrompt: CommandPrompt?
    /// The commands run so far, oldest first, for ↑ on the command line.
    var commandHistory: [String] = []
    /// How far the help overlay is scrolled, in rows; back to 0 when it opens.
    var helpScroll = 0
    /// Where the last frame put its parts, for clicks; `nil` before the first frame.
    private(set) var lastLayout: FrameLayout?
    /// The key-bar hint the left button went down on: it acts when the button comes up on it.
    var pressedKey: FrameLayout.Action?
    /// The cell and list row of the last click on a row: a double click opens that row, even
    /// if the first click scrolled the list or moved the box.
    var lastRowClick: (cell: CellPosition, index: Int)?

    let effects: AppEffects
    private var isShuttingDown = false
    private var runID = 0
    private var nextAttempt = 1
    private var fetchID = 0
    private var runTask: Task<Void, Never>?
    private var eventsTask: Task<Void, Never>?
    /// Waits for the steps after ready of the run on the main screen; cancelling it cancels them.
    private var laterStepsTask: Task<Void, Never>?
    /// Whether the run on the main screen is still running steps after ready: the main screen
    /// says `finishing start-up…` meanwhile.
    private(set) var isFinishingStartUp = false
    private var fetchTask: Task<Void, Never>?
    private var historyTask: Task<Void, Never>?
    private var historyID = 0
    private var waiters: [(condition: @MainActor (AppModel) -> Bool, continuation: CheckedContinuation<Void, Never>)] =
        []

    /// Creates a model showing the splash of the first run; call ``start()`` to begin it.
    init(options: AppOptions, logo: [String] = [], effects: AppEffects = .live) {
        self.options = options
        self.logo = logo
        self.effects = effects
        self.stage = .splash(SplashProgress(environment: Self.initialEnvironmentName(options), steps: []))
    }

    /// Whether an initialization run is in flight.
    var isRunInFlight: Bool { runsStarted > runsCompleted }

    /// Starts the first initialization run; does nothing after the first call.
    func start() {
        guard runsStarted == 0, !isShuttingDown else { return }
        startFresh(environmentName: options.environmentName)
    }

    // MARK: - Waiting (for the frame loop's owner and tests)

    /// Waits until every run, event delivery and fetch in flight has ended, including work
    /// that ending work started.
    func settle() async {
        var awaited: Set<Task<Void, Never>> = []
        while true {
            let pending = [runTask, eventsTask, fetchTask, historyTask, laterStepsTask].compactMap { $0 }.filter {
                !awaited.contains($0)
            }
            guard let next = pending.first else { return }
            await next.value
            awaited.insert(next)
        }
    }

    /// Waits until `condition` holds for the model (checked after every change).
    func waitUntil(_ condition: @escaping @MainActor (AppModel) -> Bool) async {
        if condition(self) { return }
        await withCheckedContinuation { continuation in
            waiters.append((condition, continuation))
        }
    }

    /// Cancels any run or fetch in flight, waits for it, and stops the servers of the
    /// current run (``AppDependencies/shutdown()``, or the failed run's process).
    func shutdown() async {
        guard !isShuttingDown else {
            await waitUntil { $0.isShutDown }
            return
        }
        isShuttingDown = true
        runTask?.cancel()
        laterStepsTask?.cancel()
        fetchTask?.cancel()
        historyTask?.cancel()
        await settle()
        switch stage {
        case .main(let state):
            await state.dependencies.shutdown()
        case .error(let state):
            await state.failure?.process.shutdown()
        case .splash:
            break
        }
        isShutDown = true
        changed()
    }

    // MARK: - Runs

    /// Starts a first-run initializer, in `environmentName` (the default when `nil`).
    func startFresh(environmentName: String?) {
        var options = options
        options.environmentName = environmentName
        let displayName = Self.initialEnvironmentName(options)
        do {
            launch(try effects.makeInitializer(options), environment: displayName)
        } catch {
            stage = .error(ErrorState(error: error, environment: displayName))
        }
    }

    /// Re-initializes into `environment` from the current stage through a repeat run.
    ///
    /// - Parameter isRetry: Whether this retries the environment that just failed; the
    ///   splash and error screen then count the attempt ("Retrying broken · attempt 2").
    func reinitialize(into environment: String?, isRetry: Bool = false) {
        guard !isRunInFlight else { return }
        let displayName = environment ?? Self.initialEnvironmentName(options)
        if case .error(let state) = stage, isRetry {
            nextAttempt = state.attempt + 1
        } else {
            nextAttempt = 1
        }
        do {
            switch stage {
            case .splash:
                return
            case .main(let state):
                launch(
                    try state.result.repeatInitializer(createProcess: AppPlan.switching(to: environment)),
                    environment: displayName)
            case .error(let state):
                // A repeat re-runs only repeatable steps: without the settings a simple
                // step loads, only a fresh run can succeed.
                guard let failure = state.failure, failure.process.catalog != nil else {
                    startFresh(environmentName: environment)
                    return
                }
                launch(
                    try failure.repeatInitializer(createProcess: AppPlan.switching(to: environment)),
                    environment: displayName)
            }
        } catch {
            stage = .error(ErrorState(error: error, environment: displayName))
        }
    }

    private func launch(_ initializer: DependencyInitializer<AppProcess>, environment: String) {
        guard !isRunInFlight, !isShuttingDown else { return }
        cancelFetch()
        // A new run replaces the one on the main screen: what it still had to do is not needed.
        laterStepsTask?.cancel()
        isFinishingStartUp = false
        runID += 1
        let id = runID
        let attempt = nextAttempt
        nextAttempt = 1
        runsStarted += 1
        setPanel(nil)
        isHelpVisible = false
        commandPrompt = nil
        var progress = SplashProgress(environment: environment, steps: initializer.plan)
        progress.attempt = attempt
        stage = .splash(progress)
        let events = initializer.events()
        eventsTask = Task {
            for await event in events { self.apply(event, runID: id) }
        }
        let effects = effects
        runTask = Task {
            do {
                let result = try await effects.run(initializer)
                self.writeTrace(result.report)
                self.finish(runID: id, with: .main(MainState(result: result)))
                if result.hasLaterStepsRunning { self.watchLaterSteps(of: result, runID: id) }
            } catch let failure as InitializationFailure<AppProcess> {
                self.writeTrace(failure.report)
                // Cancelled steps may fail with their own error (a dropped request), not
                // CancellationError: while shutting down, any failure is the cancellation.
                if failure.isCancellation || self.isShuttingDown {
                    await failure.process.shutdown()
                    self.finish(runID: id, with: nil)
                } else {
                    var state = ErrorState(failure: failure, environment: environment)
                    state.attempt = attempt
                    self.finish(runID: id, with: .error(state))
                }
            } catch {
                var state = ErrorState(error: error, environment: environment)
                state.attempt = attempt
                self.finish(runID: id, with: self.isShuttingDown ? nil : .error(state))
            }
        }
        changed()
    }

    /// Shows `finishing start-up…` on the main screen until the steps after ready of `result`
    /// ended, then writes the whole run's trace.
    private func watchLaterSteps(of result: InitializationResult<AppProcess>, runID id: Int) {
        isFinishingStartUp = true
        changed()
        laterStepsTask = Task {
            let report = await result.waitForLaterSteps()
            guard id == self.runID else { return }
            self.writeTrace(report)
            if case .main(var state) = self.stage, state.result === result {
                state.report = report
                self.stage = .main(state)
            }
            self.isFinishingStartUp = false
            self.changed()
        }
    }

    /// Writes a run's Chrome trace to `--trace-file`, if given: each run replaces the last.
    /// `weft start` checked before the app started that the file can be written.
    private func writeTrace(_ report: InitializationReport) {
        guard let url = options.traceFile else { return }
        try? Data(report.traceEventJSON().utf8).write(to: url, options: .atomic)
    }

    private func apply(_ event: InitializationEvent, runID id: Int) {
        guard id == runID, case .splash(var progress) = stage else { return }
        progress.apply(event)
        stage = .splash(progress)
        changed()
    }

    private func finish(runID id: Int, with next: AppStage?) {
        if id == runID, let next {
            stage = next
            scroll = 0
        }
        runsCompleted += 1
        changed()
    }

    // MARK: - Facts

    /// Fetches the next fact through the repository, unless a fetch is in flight.
    func fetchNextFact() {
        guard case .main(var state) = stage, !state.isFetching, !isShuttingDown else { return }
        state.isFetching = true
        state.notice = nil
        stage = .main(state)
        fetchID += 1
        let id = fetchID
        let repository = state.dependencies.repository
        let effects = effects
        fetchTask = Task {
            do {
                let fact = try await effects.fetchNextFact(repository)
                self.fetched(.success(fact), fetchID: id)
            } catch {
                self.fetched(.failure(error), fetchID: id)
            }
        }
    }

    private func fetched(_ outcome: Result<Fact, any Error>, fetchID id: Int) {
        guard id == fetchID, case .main(var state) = stage else { return }
        state.isFetching = false
        switch outcome {
        case .success(let fact):
            state.fact = fact
        case .failure(let error):
            state.notice = "✗ Next fact failed: \(FailureAdvice.rootCause(of: error))"
        }
        stage = .main(state)
        changed()
    }

    private func cancelFetch() {
        fetchTask?.cancel()
        fetchID += 1
    }

    // MARK: - Panels

    func openEnvironmentMenu() {
        let catalog: EnvironmentCatalog?
        let current: String?
        switch stage {
        case .splash:
            return
        case .main(let state):
            catalog = state.dependencies.catalog
            current = state.dependencies.environment.name
        case .error(let state):
            catalog = state.failure?.process.catalog
            current = state.environment
        }
        guard let catalog else { return }
        panel = .environmentMenu(EnvironmentMenu(environments: catalog.environments, current: current))
    }

    func setPanel(_ panel: AppPanel?) {
        if panel.map(Self.kind) != self.panel.map(Self.kind) { scroll = 0 }
        self.panel = panel
    }

    /// Scrolls the error text or diagnostics as a list key asks, within `limit` rows.
    func scroll(_ move: ListPosition.Move, limit: Int) {
        var position = ListPosition(count: limit + 1, index: scroll)
        position.apply(move)
        scroll = position.index
    }

    /// Records the size frames are drawn at.
    func setViewSize(_ size: TerminalSize) {
        viewSize = size
    }

    // MARK: - History and clipboard

    /// Opens the history list and reads the history into it.
    func openHistory() {
        guard case .main(let state) = stage, !isShuttingDown else { return }
        setPanel(.history(HistoryPanel()))
        historyID += 1
        let id = historyID
        let history = state.dependencies.history
        let problem = state.dependencies.historyProblem
        let effects = effects
        historyTask = Task {
            let content: HistoryPanel.Content
            do {
                guard let history else { throw problem ?? HistoryDatabaseError.unavailable }
                content = .loaded(try await effects.loadHistory(history))
            } catch {
                content = .failed("Cannot read the history: \(FailureAdvice.rootCause(of: error))")
            }
            self.historyLoaded(content, id: id)
        }
    }

    private func historyLoaded(_ content: HistoryPanel.Content, id: Int) {
        guard id == historyID, case .history(var panel)? = panel else { return }
        panel.show(content)
        setPanel(.history(panel))
        changed()
    }

    /// Copies the fact shown to the clipboard and says so in the notice line.
    func copyFact() {
        guard case .main(var state) = stage else { return }
        effects.copyToClipboard(state.fact.text)
        state.notice = "Copied the fact to the clipboard (OSC 52; where the terminal allows it)"
        stage = .main(state)
    }

    private static func kind(_ panel: AppPanel) -> Int {
        switch panel {
        case .environmentMenu: 0
        case .diagnostics: 1
        case .history: 2
        case .startup: 3
        }
    }

    func setHelpVisible(_ visible: Bool) {
        if visible, !isHelpVisible { helpScroll = 0 }
        isHelpVisible = visible
    }

    /// Records where the frame just drawn put its parts: clicks act on it.
    func record(_ layout: FrameLayout) {
        lastLayout = layout
        guard let top = layout.listTop else { return }
        switch panel {
        case .environmentMenu(var menu)?:
            menu.setTop(top)
            panel = .environmentMenu(menu)
        case .history(var history)? where !history.isOpen:
            history.setTop(top)
            panel = .history(history)
        default:
            break
        }
    }

    /// Notifies waiters after a change.
    func changed() {
        guard !waiters.isEmpty else { return }
        var remaining: [(condition: @MainActor (AppModel) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        for waiter in waiters {
            if waiter.condition(self) {
                waiter.continuation.resume()
            } else {
                remaining.append(waiter)
            }
        }
        waiters = remaining
    }

    /// The environment a first run with `options` initializes, for the splash heading.
    static func initialEnvironmentName(_ options: AppOptions) -> String {
        if let name = options.environmentName { return name }
        let catalog = try? options.catalog()
        return catalog?.defaultEnvironment.name ?? "default"
    }
}
