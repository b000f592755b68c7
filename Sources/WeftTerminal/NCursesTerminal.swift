import CNCurses
import CNCursesShims
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real terminal: ncurses in wide-character mode. The only code that touches ncurses,
/// in a target of its own so that it can be built and driven under AddressSanitizer alone.
///
/// Start-up checks that standard input and output are terminals, sets the locale from the
/// environment (UTF-8), ignores SIGINT/SIGTERM at the C level and records them in
/// ``receivedSignal`` through Dispatch signal sources on the main queue, then opens the
/// terminal with `newterm` (which reports failure instead of exiting the process).
/// Input is non-blocking; Esc is recognised after 25 ms. Colour roles map to colour pairs
/// over the user's default background, unless the terminal is monochrome.
///
/// Mouse reporting, unless turned off, asks the terminal for clicks and wheel steps in the SGR
/// format (modes 1000 and 1006) and reads them itself, whatever the terminfo entry says
/// (`tmux-256color` and `screen` know only the older X10 format). The cursor is hidden unless
/// ``placeCursor(at:visible:)`` shows it, and sits where the last frame put it either way.
///
/// Call ``shutdown()`` before exiting; an `atexit` backstop restores the terminal anyway.
@MainActor
package final class NCursesTerminal {
    /// Whether colour roles are ignored.
    package let isMonochrome: Bool
    /// Whether the locale is UTF-8; otherwise screens draw ASCII only.
    package let isUnicode: Bool
    /// The first quit signal that arrived (`SIGINT` or `SIGTERM`), if any.
    package private(set) var receivedSignal: Int32?

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var signalSources: [DispatchSourceSignal] = []
    private var files: [UnsafeMutablePointer<FILE>] = []
    private var isActive = true
    private let restoresScreen: Bool
    private var hasColorPairs = false
    private let readsMouse: Bool
    private var cursor = CellPosition(row: 0, column: 0)
    private var isCursorVisible = false
    private var lastPress: (event: MouseEvent, at: ContinuousClock.Instant)?

    /// The key code ncurses returns for `ESC [ <`, the start of an SGR mouse report: far above
    /// the codes ncurses gives a terminfo entry's extended keys (`KEY_MAX` plus their index).
    private static let mouseReportCode: Int32 = KEY_MAX + 1_000
    /// The key code for `ESC [ M`, the start of an X10 mouse report (a terminal without 1006).
    private static let x10ReportCode: Int32 = KEY_MAX + 1_001
    /// Two presses of a button on one cell within this time are a double click.
    package static let doubleClickInterval = Duration.milliseconds(500)

    /// Opens the controlling terminal.
    ///
    /// - Parameters:
    ///   - environment: the process environment, read for `TERM` and `NO_COLOR`.
    ///   - mouse: whether to ask the terminal for clicks and wheel steps; off, the terminal
    ///     keeps selecting text with the mouse as usual.
    /// - Throws: ``TerminalError`` when standard input or output is not a terminal,
    ///   `TERM` names an unknown terminal, or one that cannot place the cursor (`dumb`).
    package convenience init(environment: [String: String], mouse: Bool = true) throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(.notATerminal)
        }
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else {
            throw TerminalError(.cannotPlaceCursor(term: term.isEmpty ? "(unset)" : term))
        }
        setlocale(LC_ALL, "")
        // ncurses installs its own SIGINT/SIGTERM handlers only over SIG_DFL; ignoring them
        // first leaves them to the Dispatch sources installed below.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        guard let screen = newterm(nil, weft_stdout(), weft_stdin()) else {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            throw TerminalError(.cannotOpenTerminal(term: environment["TERM"] ?? "(unset)"))
        }
        // A full-screen layout needs cursor addressing; without it every frame would scroll.
        guard weft_has_capability("cup") != 0 else {
            endwin()
            delscreen(screen)
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            throw TerminalError(.cannotPlaceCursor(term: term))
        }
        self.init(
            screen: screen, environment: environment, files: [], isUnicode: weft_locale_is_utf8() != 0, mouse: mouse)
        installSignalSources()
    }

    /// Opens an off-screen terminal of type `termName` that writes to `/dev/null` and reads
    /// from `/dev/null` or the file at `input` (keys and mouse reports as a terminal sends them),
    /// for testing the ncurses backend without a TTY.
    ///
    /// ncurses state is process-global: only one instance may be open at a time.
    package convenience init(
        offscreen size: TerminalSize, termName: String = "xterm-256color", environment: [String: String] = [:],
        mouse: Bool = false, input inputPath: String = "/dev/null"
    )
        throws(TerminalError)
    {
        setlocale(LC_ALL, "C.UTF-8")
        guard let output = fopen("/dev/null", "w"), let input = fopen(inputPath, "r") else {
            throw TerminalError(.cannotOpenTerminal(term: termName))
        }
        guard let screen = newterm(termName, output, input) else {
            fclose(output)
            fclose(input)
            throw TerminalError(.cannotOpenTerminal(term: termName))
        }
        self.init(screen: screen, environment: environment, files: [output, input], isUnicode: true, mouse: mouse)
        resize_term(Int32(size.rows), Int32(size.columns))
    }

    private init(
        screen: OpaquePointer, environment: [String: String], files: [UnsafeMutablePointer<FILE>], isUnicode: Bool,
        mouse: Bool
    ) {
        self.screen = screen
        self.readsMouse = mouse
        self.files = files
        self.isUnicode = isUnicode
        // Terminals without an alternate screen (linux, vt100) keep the UI on screen after
        // endwin: those get the screen cleared on the way out.
        self.restoresScreen = weft_has_capability("rmcup") != 0
        let window = weft_stdscr()
        // stdscr is set by newterm; a failure to create it would have returned NULL above.
        self.window = window ?? newwin(1, 1, 0, 0)
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let dumb = environment["TERM"] == "dumb"
        isMonochrome = noColor || dumb || !has_colors()
        weft_install_endwin_backstop()
        set_escdelay(25)
        keypad(self.window, true)
        // All eight bits of each input byte: UTF-8, and X10 mouse reports past column 95.
        meta(self.window, true)
        noecho()
        cbreak()
        curs_set(0)
        wtimeout(self.window, 0)
        if !isMonochrome {
            start_color()
            use_default_colors()
            defineColorPairs()
        }
        if mouse {
            // Replaces the terminfo entry's own mouse key, if any: this reads the report itself.
            define_key("\u{1B}[<", Self.mouseReportCode)
            define_key("\u{1B}[M", Self.x10ReportCode)
            // Only a real terminal is told (off-screen ones write to /dev/null, not stdout).
            if files.isEmpty {
                weft_set_mouse_reporting(1)
                weft_install_suspend_handler()
            }
        }
    }

    // MARK: Terminal

    /// The current size of the screen.
    package var size: TerminalSize {
        TerminalSize(rows: Int(weft_rows(window)), columns: Int(weft_columns(window)))
    }

    /// Blanks the screen without forcing a full repaint.
    package func clear() {
        werase(window)
    }

    /// Writes `text` on one line, clipped to the screen.
    package func put(_ text: String, row: Int, column: Int, style: TextStyle) {
        let size = self.size
        guard row >= 0, row < size.rows, column < size.columns else { return }
        var clean = TextLayout.sanitized(text)
        var startColumn = column
        while startColumn < 0, let first = clean.first {  // clip on the left
            startColumn += TextLayout.width(of: first)
            clean.removeFirst()
        }
        let fitted = TextLayout.prefix(clean, fittingWidth: size.columns - startColumn)
        guard !fitted.isEmpty else { return }
        let characters = Self.wideString(fitted)
        wattr_set(window, attributes(for: style), pair(for: style), nil)
        _ = characters.withUnsafeBufferPointer { buffer in
            // ncurses 6.4 reads str[n] before it checks n: the buffer must hold the terminator.
            mvwaddnwstr(window, Int32(row), Int32(startColumn), buffer.baseAddress, Int32(buffer.count - 1))
        }
        wattr_set(window, weft_a_normal(), 0, nil)
    }

    /// `text` as the zero-terminated wide string every ncurses wide-character call gets:
    /// one `wchar_t` (a 32-bit integer on Linux and macOS) per Unicode scalar, then a 0.
    package static func wideString(_ text: String) -> [Int32] {
        var characters = text.unicodeScalars.map { Int32(bitPattern: $0.value) }
        characters.append(0)
        return characters
    }

    /// Draws a box with the terminal's line-drawing characters.
    package func drawBox(_ rect: Rect, style: TextStyle) {
        guard rect.height >= 2, rect.width >= 2 else { return }
        let attrs = chtype(attributes(for: style) | weft_color_pair(pair(for: style)))
        let top = Int32(rect.row)
        let left = Int32(rect.column)
        let bottom = Int32(rect.bottom - 1)
        let right = Int32(rect.right - 1)
        mvwaddch(window, top, left, weft_acs_ulcorner() | attrs)
        mvwaddch(window, top, right, weft_acs_urcorner() | attrs)
        mvwaddch(window, bottom, left, weft_acs_llcorner() | attrs)
        mvwaddch(window, bottom, right, weft_acs_lrcorner() | attrs)
        if rect.width > 2 {
            mvwhline(window, top, left + 1, weft_acs_hline() | attrs, Int32(rect.width - 2))
            mvwhline(window, bottom, left + 1, weft_acs_hline() | attrs, Int32(rect.width - 2))
        }
        if rect.height > 2 {
            mvwvline(window, top + 1, left, weft_acs_vline() | attrs, Int32(rect.height - 2))
            mvwvline(window, top + 1, right, weft_acs_vline() | attrs, Int32(rect.height - 2))
        }
    }

    /// Sends `text` to the terminal's clipboard with OSC 52 (`ESC ] 52 ; c ; base64 BEL`);
    /// terminals without clipboard support ignore the sequence, and it moves no cursor.
    package func copyToClipboard(_ text: String) {
        guard isActive, files.isEmpty else { return }
        let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        fflush(weft_stdout())
        Array(sequence.utf8).withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(STDOUT_FILENO, base + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Puts the terminal's cursor on `position` at the next ``flush()``, shown when `visible`
    /// and hidden otherwise; a hidden cursor still moves there, where screen readers and
    /// braille displays look for the focus.
    package func placeCursor(at position: CellPosition, visible: Bool) {
        cursor = position
        if visible != isCursorVisible {
            isCursorVisible = visible
            curs_set(visible ? 1 : 0)
        }
    }

    /// Sends the changes since the last flush to the terminal, then moves the cursor to where
    /// ``placeCursor(at:visible:)`` put it.
    package func flush() {
        let size = self.size
        wmove(
            window, Int32(min(max(0, cursor.row), max(0, size.rows - 1))),
            Int32(min(max(0, cursor.column), max(0, size.columns - 1))))
        wnoutrefresh(window)
        doupdate()
    }

    /// The next waiting key, or ``Key/none``; never blocks.
    package func readKey() -> Key {
        var code: wint_t = 0
        let result = wget_wch(window, &code)
        if result == ERR { return .none }
        if result == KEY_CODE_YES {
            switch Int32(bitPattern: code) {
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_RESIZE: return .resize
            case KEY_HOME: return .home
            case KEY_END: return .end
            case KEY_PPAGE: return .pageUp
            case KEY_NPAGE: return .pageDown
            case KEY_BACKSPACE, KEY_DC: return .backspace
            case KEY_ENTER: return .enter
            case Self.mouseReportCode where readsMouse: return readMouseReport()
            case Self.x10ReportCode where readsMouse: return readX10Report()
            default: return .unknown(Int32(bitPattern: code))
            }
        }
        switch code {
        case 10, 13: return .enter
        case 27: return .escape
        case 3: return .ctrlC
        case 9: return .tab
        case 8, 127: return .backspace
        default:
            guard let scalar = Unicode.Scalar(UInt32(code)), scalar.properties.generalCategory != .control else {
                return .unknown(Int32(bitPattern: code))
            }
            return .char(Character(scalar))
        }
    }

    /// The rest of an SGR mouse report after `ESC [ <`: the parameters up to the final `M` or
    /// `m`. The terminal writes a report at once, so it is waiting; a report cut short or
    /// garbled reads as an unknown key.
    /// Only digits and `;` are read as parameters: anything else ends the report there and
    /// is left for the next read, so a key typed after a garbled report is not lost.
    private func readMouseReport() -> Key {
        var parameters = ""
        wtimeout(window, 50)
        defer { wtimeout(window, 0) }
        while parameters.utf8.count <= MouseEvent.maximumParameterLength {
            var code: wint_t = 0
            let result = wget_wch(window, &code)
            guard result == OK, let scalar = Unicode.Scalar(UInt32(code)) else { break }
            if scalar == "M" || scalar == "m" {
                guard var event = MouseEvent.sgr(parameters: Substring(parameters), final: Character(scalar)) else {
                    break
                }
                event.clickCount = clickCount(of: event)
                return .mouse(event)
            }
            guard scalar == ";" || ("0"..."9").contains(scalar) else {
                unget_wch(wchar_t(bitPattern: code))
                break
            }
            parameters.unicodeScalars.append(scalar)
        }
        return .unknown(Self.mouseReportCode)
    }

    /// The three bytes of an X10 report after `ESC [ M`, read as bytes (above 127 they are not
    /// UTF-8); a report cut short reads as an unknown key.
    private func readX10Report() -> Key {
        wtimeout(window, 50)
        defer { wtimeout(window, 0) }
        var bytes: [UInt8] = []
        while bytes.count < 3 {
            let byte = wgetch(window)
            guard byte >= 0, byte <= 255 else { return .unknown(Self.x10ReportCode) }
            bytes.append(UInt8(byte))
        }
        guard var event = MouseEvent.x10(bytes[0], bytes[1], bytes[2]) else { return .unknown(Self.x10ReportCode) }
        event.clickCount = clickCount(of: event)
        return .mouse(event)
    }

    /// 2 for the second press of a button on the same cell within ``doubleClickInterval``,
    /// 3 for a third, and so on; 1 otherwise.
    private func clickCount(of event: MouseEvent) -> Int {
        guard case .press = event.kind else { return 1 }
        let now = ContinuousClock.now
        var count = 1
        if let last = lastPress, last.event.kind == event.kind, last.event.row == event.row,
            last.event.column == event.column, now - last.at <= Self.doubleClickInterval
        {
            count = last.event.clickCount + 1
        }
        var recorded = event
        recorded.clickCount = count
        lastPress = (recorded, now)
        return count
    }

    // MARK: Lifecycle

    /// Restores the terminal (`endwin`) and releases ncurses; safe to call more than once.
    package func shutdown() {
        guard isActive else { return }
        isActive = false
        for source in signalSources { source.cancel() }
        signalSources = []
        if readsMouse, files.isEmpty {
            weft_set_mouse_reporting(0)
            // A report the terminal sent before it stopped goes nowhere, not to the shell.
            flushinp()
        }
        if !restoresScreen, files.isEmpty {
            // No alternate screen to return to: blank the UI so the prompt never lands in it.
            werase(window)
            wnoutrefresh(window)
            doupdate()
        }
        endwin()
        if !restoresScreen, files.isEmpty { weft_put_clear() }
        delscreen(screen)
        for file in files { fclose(file) }
        files = []
    }

    /// Where ncurses holds the cursor: after ``flush()``, where the terminal shows it.
    package var cursorPosition: CellPosition {
        CellPosition(row: Int(weft_cursor_row(window)), column: Int(weft_cursor_column(window)))
    }

    /// The text of row `row` as ncurses holds it (line-drawing cells read back as ASCII).
    package func readBack(row: Int) -> String {
        let columns = size.columns
        var buffer = [wchar_t](repeating: 0, count: columns + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            mvwinnwstr(window, Int32(row), 0, pointer.baseAddress, Int32(columns))
        }
        guard count > 0 else { return "" }
        var text = String(
            String.UnicodeScalarView(buffer.prefix(Int(count)).compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }))
        while text.last == " " { text.removeLast() }
        return text
    }

    // MARK: Private

    private func installSignalSources() {
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated {
                    if self?.receivedSignal == nil { self?.receivedSignal = number }
                }
            }
            source.resume()
            signalSources.append(source)
        }
    }

    private func defineColorPairs() {
        let muted: Int16 = weft_colors() >= 16 ? 8 : -1  // bright black where available
        let pairs: [ColorRole: (Int16, Int16)] = [
            .titleBar: (Int16(COLOR_BLACK), Int16(COLOR_CYAN)),
            .hintBar: (Int16(COLOR_BLACK), Int16(COLOR_CYAN)),
            .hintKey: (Int16(COLOR_WHITE), Int16(COLOR_BLUE)),
            .accent: (Int16(COLOR_CYAN), -1),
            .success: (Int16(COLOR_GREEN), -1),
            .failure: (Int16(COLOR_RED), -1),
            .warning: (Int16(COLOR_YELLOW), -1),
            .muted: (muted, -1),
            .selection: (Int16(COLOR_WHITE), Int16(COLOR_BLUE)),
            .border: (Int16(COLOR_BLUE), -1),
        ]
        for (role, colors) in pairs {
            init_pair(Int16(role.rawValue), colors.0, colors.1)
        }
        hasColorPairs = true
    }

    private func pair(for style: TextStyle) -> Int16 {
        guard hasColorPairs, !isMonochrome else { return 0 }
        return Int16(style.role.rawValue)
    }

    private func attributes(for style: TextStyle) -> attr_t {
        var attrs = weft_a_normal()
        if style.isBold { attrs |= weft_a_bold() }
        if style.isReverse { attrs |= weft_a_reverse() }
        if style.isDim { attrs |= weft_a_dim() }
        if style.role == .muted, hasColorPairs, weft_colors() < 16 { attrs |= weft_a_dim() }
        return attrs
    }
}
