import WeftTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Drives the ncurses adapter off-screen (`newterm` on `/dev/null`) through every drawing
/// path with text of every length, wide glyphs, emoji, combining marks and control
/// characters, at the edges and across resizes, and checks what ncurses holds. `scripts/test`
/// builds and runs it under AddressSanitizer (`--sanitize=address --scratch-path
/// .build-asan`): this target depends on the adapter alone, so that build stays small.
/// Prints `N passed, M failed` and exits 1 on any failure.
@main
struct WeftTerminalCheck {
    @MainActor
    static func main() {
        var passed = 0
        var failed = 0
        func check(_ condition: Bool, _ what: @autoclosure () -> String) {
            if condition {
                passed += 1
            } else {
                failed += 1
                print("FAIL \(what())")
            }
        }

        // Every wide string handed to ncurses ends in a zero.
        for text in ["", "a", "猫", "🐈‍⬛", "e\u{301}", String(repeating: "x", count: 1000)] {
            let wide = NCursesTerminal.wideString(text)
            check(
                wide.last == 0 && wide.count == text.unicodeScalars.count + 1,
                "wideString(\(text.prefix(10))) is zero-terminated")
        }

        let samples = [
            "q", "猫", "cat 🐈 nap", "e\u{301}t\u{E9}", "tab\there", "\u{1B}[31mred", "‮bidi",
            String(repeating: "猫x", count: 70),
        ]
        for (rows, columns) in [(24, 80), (16, 60), (5, 7), (1, 1), (40, 200)] {
            let terminal: NCursesTerminal
            do {
                terminal = try NCursesTerminal(offscreen: TerminalSize(rows: rows, columns: columns))
            } catch {
                check(false, "open an off-screen terminal \(rows)×\(columns): \(error)")
                continue
            }
            check(terminal.size == TerminalSize(rows: rows, columns: columns), "size \(rows)×\(columns)")
            for round in 0..<20 {
                terminal.clear()
                for (index, sample) in samples.enumerated() {
                    // Every length of every sample, at columns from off-screen left to off-screen right.
                    let length = (round * 7 + index) % (sample.count + 1)
                    let text = String(sample.prefix(length))
                    let column = (round * 5 + index * 3) % (columns + 4) - 2
                    terminal.put(
                        text, row: (round + index) % (rows + 1), column: column,
                        style: TextStyle(isBold: index % 2 == 0))
                }
                terminal.drawBox(Rect(row: 0, column: 0, height: rows, width: columns), style: TextStyle(role: .border))
                terminal.flush()
                for row in 0..<rows {
                    let line = terminal.readBack(row: row)
                    check(
                        TextLayout.width(of: line) <= columns,
                        "row \(row) of \(rows)×\(columns) fits: \(line.prefix(20))")
                }
            }
            if columns >= 20 {
                terminal.clear()
                terminal.put("猫 naps", row: 0, column: 2, style: .plain)
                check(terminal.readBack(row: 0) == "  猫 naps", "a wide glyph reads back where it was put")
            }
            terminal.shutdown()
        }
        // Mouse reports as a terminal sends them, read through ncurses' input: a double click,
        // a wheel step, a release, an X10 press far right (its bytes above 127: not UTF-8),
        // then reports cut short or garbled among keys; the cursor parked on a cell and shown.
        var input = Array(
            "\u{1B}[<0;10;5M\u{1B}[<0;10;5m\u{1B}[<0;10;5M\u{1B}[<65;1;1Mq\u{1B}[M".utf8)
        input += [32, 33 + 150, 33 + 20]
        input += Array("\u{1B}[<0;3x\u{1B}[<99999999999999999999Mj\u{1B}[<32;4;4M\u{1B}[<0;2;2".utf8)
        let path = "/tmp/weft-terminal-check-\(getpid())"
        if let file = fopen(path, "w") {
            _ = input.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }
        defer { unlink(path) }
        do {
            let terminal = try NCursesTerminal(offscreen: TerminalSize(rows: 24, columns: 80), mouse: true, input: path)
            var keys: [Key] = []
            for _ in 0..<40 {
                let key = terminal.readKey()
                if key != .none { keys.append(key) }
            }
            check(
                keys.prefix(6) == [
                    .mouse(MouseEvent(.press(button: 0), row: 4, column: 9)),
                    .mouse(MouseEvent(.release(button: 0), row: 4, column: 9)),
                    .mouse(MouseEvent(.press(button: 0), row: 4, column: 9, clickCount: 2)),
                    .mouse(MouseEvent(.wheelDown, row: 0, column: 0)), .char("q"),
                    .mouse(MouseEvent(.press(button: 0), row: 20, column: 150)),
                ], "mouse reports read through ncurses: \(keys.prefix(6))")
            check(
                keys.contains(.char("x")) && keys.contains(.char("j")),
                "the keys after a garbled report are read: \(keys)")
            check(
                !keys.dropFirst(6).contains { if case .mouse = $0 { true } else { false } },
                "garbled, cut-short and motion reports are not clicks: \(keys)")
            terminal.placeCursor(at: CellPosition(row: 3, column: 7), visible: true)
            terminal.flush()
            check(
                terminal.cursorPosition == CellPosition(row: 3, column: 7), "the cursor is parked where it was placed")
            terminal.placeCursor(at: CellPosition(row: 99, column: 999), visible: false)
            terminal.flush()
            check(
                terminal.cursorPosition == CellPosition(row: 23, column: 79), "a cursor placed off-screen stays on it")
            terminal.shutdown()
        } catch {
            check(false, "open an off-screen terminal reading \(path): \(error)")
        }
        print("WeftTerminalCheck: \(passed) passed, \(failed) failed")
        exit(failed == 0 ? 0 : 1)
    }
}
