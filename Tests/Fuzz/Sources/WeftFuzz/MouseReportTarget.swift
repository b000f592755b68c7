import WeftTerminal

/// The terminal's mouse reports: what follows `ESC [ <` up to the final `M` or `m`, as the
/// full-screen app reads it from its input (a terminal, or whatever is pasted into it).
///
/// The input's last byte is the final character and the bytes before it the parameters. A
/// report is a press, a release or a wheel step at a cell from 0 to 65,534 each way; written
/// back as the terminal would write it, it reads the same. Anything else is refused (`nil`),
/// never a crash.
enum MouseReportTarget {
    static let name = "mouse-report"

    static let run: FuzzTarget = { bytes in
        guard let last = bytes.last else { return }
        let parameters = String(decoding: bytes.dropLast(), as: UTF8.self)
        let final = Character(Unicode.Scalar(last))
        guard let event = MouseEvent.sgr(parameters: Substring(parameters), final: final) else { return }
        require(
            (0..<65_535).contains(event.row) && (0..<65_535).contains(event.column) && event.clickCount == 1,
            "a report at an impossible cell: \(event)")
        let code: Int
        let written: Character
        switch event.kind {
        case .press(let button): (code, written) = (button, "M")
        case .release(let button): (code, written) = (button, "m")
        case .wheelUp: (code, written) = (64, "M")
        case .wheelDown: (code, written) = (65, "M")
        }
        require((0...2).contains(code) || code >= 64, "a button the app does not read: \(event)")
        let again = MouseEvent.sgr(parameters: "\(code);\(event.column + 1);\(event.row + 1)", final: written)
        require(again == event, "a report written back reads differently: \(event), \(String(describing: again))")
    }
}
