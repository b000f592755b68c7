/// A mouse report from the terminal: a button pressed or released, or the wheel turned, at a
/// cell.
///
/// The terminal sends these once mouse reporting is on (``NCursesTerminal`` turns it on
/// unless told not to), in xterm's SGR format (mode 1006): `ESC [ < b ; x ; y M` for a press
/// or a wheel step, with a final `m` for a release. A terminal without mode 1006 sends the
/// older X10 format, `ESC [ M` and three bytes (``x10(_:_:_:)``).
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
        return decode(code: numbers[0], x: numbers[1], y: numbers[2], isRelease: final == "m")
    }

    /// The event in an X10 report's three bytes after `ESC [ M` (button, column and row, each
    /// plus 32), or `nil` when they are not a report this app reads. X10 cannot say which
    /// button was released: a release reads as the left button's.
    package static func x10(_ button: UInt8, _ column: UInt8, _ row: UInt8) -> MouseEvent? {
        guard button >= 32, column > 32, row > 32 else { return nil }
        let code = Int(button) - 32
        if code & 0b11 == 3, code & (64 | 32) == 0 {
            return MouseEvent(.release(button: 0), row: Int(row) - 33, column: Int(column) - 33)
        }
        return decode(code: code, x: Int(column) - 32, y: Int(row) - 32, isRelease: false)
    }

    /// The event a report's button code and one-based cell describe.
    private static func decode(code: Int, x: Int, y: Int, isRelease: Bool) -> MouseEvent? {
        guard x >= 1, y >= 1, x <= 65_535, y <= 65_535 else { return nil }
        // Bits 2-4 are Shift, Meta and Control, read alike; 32 is motion, 64 the wheel.
        let button = code & 0b11
        let isMotion = code & 32 != 0
        let isWheel = code & 64 != 0
        guard !isMotion, code & 128 == 0 else { return nil }
        let kind: Kind
        if isWheel {
            guard !isRelease else { return nil }
            switch button {
            case 0: kind = .wheelUp
            case 1: kind = .wheelDown
            default: return nil  // sideways
            }
        } else {
            guard button < 3 else { return nil }
            kind = isRelease ? .release(button: button) : .press(button: button)
        }
        return MouseEvent(kind, row: y - 1, column: x - 1)
    }
}
