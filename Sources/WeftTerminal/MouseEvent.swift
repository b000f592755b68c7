/// A mouse report from the terminal: a button pressed or released, or the wheel turned, at a
/// cell.
///
/// The terminal sends these once mouse reporting is on (``NCursesTerminal`` turns it on
/// unless told not to), in xterm's SGR format (mode 1006): `ESC [ < b ; x ; y M` for a press
/// or a wheel step, with a final `m` for a release.
package struct MouseEvent: Sendable, Hashable {
    /// What happened.
    package enum Kind: Sendable, Hashable {
        /// A button went down: 0 left, 1 middle, 2 right.
        case press(button: Int)
        /// A button came up.
        case release(button: Int)
        /// The wheel turned away from the person (scroll up).
        case wheelUp
        /// The wheel turned towards the person (scroll down).
        case wheelDown
    }

    /// What happened.
    package var kind: Kind
    /// The zero-based row of the cell.
    package var row: Int
    /// The zero-based column of the cell.
    package var column: Int
    /// For a press: 1 for a single click, 2 for the second of a double click, and so on.
    package var clickCount: Int

    /// Creates an event.
    package init(_ kind: Kind, row: Int, column: Int, clickCount: Int = 1) {
        self.kind = kind
        self.row = row
        self.column = column
        self.clickCount = clickCount
    }

    /// Whether this is a press of the left button.
    package var isLeftPress: Bool { kind == .press(button: 0) }

    /// The longest parameter text a report can have (`b;x;y` with five digits each), beyond
    /// which the input is not a mouse report.
    package static let maximumParameterLength = 17

    /// The event in an SGR report's parameters `b;x;y` (what follows `ESC [ <`) and its final
    /// character (`M` press, `m` release), or `nil` when they are not a report this app reads
    /// (motion, buttons 4 and up other than the wheel, coordinates below 1 or above 65,535).
    ///
    /// ```swift
    /// MouseEvent.sgr(parameters: "0;10;5", final: "M")   // left press at row 4, column 9
    /// MouseEvent.sgr(parameters: "65;1;1", final: "M")   // wheel down at the top left
    /// ```
    package static func sgr(parameters: Substring, final: Character) -> MouseEvent? {
        guard final == "M" || final == "m", parameters.utf8.count <= maximumParameterLength else { return nil }
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        var numbers: [Int] = []
        for field in fields {
            guard !field.isEmpty, field.utf8.count <= 5, field.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = Int(field)
            else { return nil }
            numbers.append(value)
        }
        let (code, x, y) = (numbers[0], numbers[1], numbers[2])
        guard x >= 1, y >= 1, x <= 65_535, y <= 65_535 else { return nil }
        // Bits 2-4 are Shift, Meta and Control, read alike; 32 is motion, 64 the wheel.
        let button = code & 0b11
        let isMotion = code & 32 != 0
        let isWheel = code & 64 != 0
        guard !isMotion, code & 128 == 0 else { return nil }
        let kind: Kind
        if isWheel {
            guard final == "M" else { return nil }
            switch button {
            case 0: kind = .wheelUp
            case 1: kind = .wheelDown
            default: return nil  // sideways
            }
        } else {
            guard button < 3 else { return nil }
            kind = final == "M" ? .press(button: button) : .release(button: button)
        }
        return MouseEvent(kind, row: y - 1, column: x - 1)
    }
}
