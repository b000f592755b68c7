import WeftApp
import WeftTerminal

/// The frame loop: draws the current screen, parks the cursor on its focus, handles waiting
/// keys, then suspends for one frame interval so async work (initialization, fetches, signal
/// sources) runs meanwhile.
///
/// ```swift
/// let app = TerminalApp(terminal: terminal)
/// let status = await app.run(
///     onKey: { key in model.handle(key) },          // returns .proceed or .quit(exitCode:)
///     frame: { tick in model.frame(tick: tick) },   // the screen to show now
///     drawn: { layout in model.record(layout) }     // where it went: for clicks
/// )
/// terminal.shutdown()
/// ```
///
/// The loop never blocks the main actor: input is polled, and between frames the loop
/// awaits `Task.sleep`. It ends when `onKey` says so, when a quit signal arrives
/// (``Interruption/exitCode``), or when its task is cancelled (exit code 130). It does not
/// restore the terminal; its owner does (``NCursesTerminal/shutdown()``).
@MainActor
final class TerminalApp {
    /// What the key handler wants the loop to do next.
    enum Control: Sendable, Hashable {
        /// Keep running.
        case proceed
        /// Stop and return `exitCode`.
        case quit(exitCode: Int32)
    }

    /// What to draw in one frame.
    struct Frame: Sendable {
        /// The screen.
        var screen: any Screen
        /// A help overlay on top, or `nil`.
        var overlay: HelpOverlay?
        /// The command line in place of the key bar, or `nil`.
        var commandLine: CommandLineView?

        /// Creates a frame.
        init(screen: any Screen, overlay: HelpOverlay? = nil, commandLine: CommandLineView? = nil) {
            self.screen = screen
            self.overlay = overlay
            self.commandLine = commandLine
        }
    }

    /// The terminal drawn on.
    let terminal: any Terminal
    /// The pause between frames (default 60 ms, about 16 frames a second).
    let frameInterval: Duration
    /// Whether the cursor is drawn on the focus (`--a11y`); otherwise it is drawn only while
    /// the person types a command, and parked there hidden.
    let showsCursor: Bool

    /// Creates a loop over `terminal`.
    init(terminal: any Terminal, frameInterval: Duration = .milliseconds(60), showsCursor: Bool = false) {
        self.terminal = terminal
        self.frameInterval = frameInterval
        self.showsCursor = showsCursor
    }

    /// Runs until the key handler quits, a quit signal arrives, or the task is cancelled.
    ///
    /// Each iteration draws `frame(tick)` (tick counts up from 0 and drives spinners), hands
    /// where it went to `drawn`, parks the cursor on its focus, then hands every waiting key
    /// to `onKey` in order; ``Key/resize`` is handed on too, and the next frame is laid out for
    /// the new size.
    ///
    /// - Returns: the exit code: from ``Control/quit(exitCode:)``, 130 for SIGINT or
    ///   cancellation, 143 for SIGTERM.
    func run(
        onKey: @MainActor (Key) async -> Control,
        frame: @MainActor (_ tick: Int) -> Frame,
        drawn: @MainActor (FrameLayout) -> Void = { _ in }
    ) async -> Int32 {
        var tick = 0
        while true {
            if let interruption = terminal.interruption { return interruption.exitCode }
            let current = frame(tick)
            let layout = current.screen.render(on: terminal, overlay: current.overlay, commandLine: current.commandLine)
            drawn(layout)
            terminal.placeCursor(at: layout.focus, visible: showsCursor || layout.isTyping)
            terminal.flush()
            while true {
                let key = terminal.readKey()
                if key == .none { break }
                if case .quit(let exitCode) = await onKey(key) { return exitCode }
                // The next click must land on what this one changed: draw first.
                if case .mouse = key { break }
            }
            do {
                try await Task.sleep(for: frameInterval)
            } catch {
                return Interruption.interrupt.exitCode
            }
            tick &+= 1
        }
    }
}
