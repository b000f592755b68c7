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
        print("WeftTerminalCheck: \(passed) passed, \(failed) failed")
        exit(failed == 0 ? 0 : 1)
    }
}
