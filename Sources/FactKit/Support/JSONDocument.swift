/// A JSON document read strictly, byte by byte, with the line and column of every value, so
/// that a validator can say where a problem is; and every problem the lenient readers let
/// through or hide is refused with its place: invalid UTF-8, a lone surrogate, a number out
/// of range or with a leading zero, a raw control character, a key given twice.
package struct JSONDocument {
    /// One value and where it starts.
    package struct Node: Sendable, Hashable {
        package indirect enum Value: Sendable, Hashable {
            case null
            case bool(Bool)
            case number(Double)
            case string(String)
            case array([Node])
            /// Members in file order.
            case object([Member])
        }

        /// One `"key": value` member of an object.
        package struct Member: Sendable, Hashable {
            package var key: String
            package var value: Node
        }

        package var value: Value
        /// 1-based line of the value's first character.
        package var line: Int
        /// 1-based column (in characters) of the value's first character.
        package var column: Int

        /// The member `key` of an object.
        package subscript(key: String) -> Node? {
            guard case .object(let members) = value else { return nil }
            return members.first { $0.key == key }?.value
        }

        /// A short description of the value's kind and content, for "got …" in messages;
        /// strings are quoted at most 60 characters long.
        package var summary: String {
            switch value {
            case .null: "null"
            case .bool(let value): "\(value)"
            case .number(let value): value.rounded() == value && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
            case .string(let value): "\"\(JSONDocument.quoted(value))\""
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// Why a document could not be read, and where.
    package struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        package var problem: String
        package var line: Int
        package var column: Int
        package var description: String { "\(problem) at line \(line), column \(column)" }
    }

    /// `text` cut to 60 characters (with `…`) and with control characters shown as escapes,
    /// for quoting a value in a message.
    package static func quoted(_ text: String) -> String {
        let cut = text.count > 60 ? String(text.prefix(59)) + "…" : text
        return cut.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }.joined()
    }

    /// Reads `bytes` as one JSON value.
    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Node {
        var reader = Reader(bytes: bytes)
        try reader.checkUTF8()
        reader.skipWhitespace()
        let node = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return node
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        /// Index of the first byte of the current line.
        var lineStart = 0
        /// A byte of the current line whose column is known, so that the next column is counted
        /// from there, not from the line's start: a document written on one line is read in
        /// linear time. Only a byte between two ASCII bytes is kept, where a character always ends
        /// (the one pair that does not, CR LF, cannot be split here: a value never starts with
        /// LF), so counting in two parts gives what counting from the line's start would.
        var known = (index: 0, column: 1)

        init(bytes: [UInt8]) { self.bytes = bytes }

        static let maximumDepth = 64

        /// The 1-based column, in characters, of byte `index` on the current line.
        func column(at index: Int) -> Int {
            let index = min(index, bytes.count)
            let (start, column) = known.index >= lineStart && known.index <= index ? known : (lineStart, 1)
            return String(decoding: bytes[start..<index], as: UTF8.self).count + column
        }

        /// The column of byte `index`, remembered for the next value's column when a character
        /// boundary is certain there.
        mutating func valueColumn(at index: Int) -> Int {
            let column = column(at: index)
            if index > lineStart, index < bytes.count, bytes[index - 1] < 0x80, bytes[index] < 0x80 {
                known = (index, column)
            }
            return column
        }

        func error(_ problem: String, at index: Int? = nil) -> SyntaxError {
            SyntaxError(problem: problem, line: line, column: column(at: index ?? self.index))
        }

        /// Refuses bytes that are not UTF-8, naming the line and column of the first.
        mutating func checkUTF8() throws(SyntaxError) {
            var position = 0
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            var lineNumber = 1
            var start = 0
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    position += UTF8.width(scalar)
                    if scalar == "\n" {
                        lineNumber += 1
                        start = position
                    }
                case .emptyInput:
                    break decoding
                case .error:
                    line = lineNumber
                    lineStart = start
                    throw SyntaxError(problem: "invalid UTF-8", line: lineNumber, column: column(at: position))
                }
            }
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> Node {
            guard depth < Self.maximumDepth else {
                throw error("more than \(Self.maximumDepth) nested arrays or objects")
            }
            guard index < bytes.count else { throw error("unexpected end of the file, expected a value") }
            let startLine = line
            let startColumn = valueColumn(at: index)
            let value: Node.Value
            switch bytes[index] {
            case UInt8(ascii: "{"): value = try object(depth: depth)
            case UInt8(ascii: "["): value = try array(depth: depth)
            case UInt8(ascii: "\""): value = .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try number())
            default: throw error("unexpected character \(describe(at: index)), expected a value")
            }
            return Node(value: value, line: startLine, column: startColumn)
        }

        func describe(at index: Int) -> String {
            let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).unicodeScalars
                .first
            return scalar.map { "\"\(JSONDocument.quoted(String($0)))\"" } ?? "byte \(bytes[index])"
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("unexpected character \(describe(at: index)), expected a value")
            }
            index += expected.count
        }

        mutating func object(depth: Int) throws(SyntaxError) -> Node.Value {
            index += 1
            var members: [Node.Member] = []
            var seen: [String: Int] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object([])
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw index < bytes.count
                        ? error("expected a key in quotes") : error("unexpected end of the file inside an object")
                }
                let keyLine = line
                let keyIndex = index
                let key = try string()
                if let first = seen[key] {
                    throw error(
                        "the key \"\(JSONDocument.quoted(key))\" appears twice in one object (first on line \(first))",
                        at: keyIndex)
                }
                seen[key] = keyLine
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected \":\" after a key")
                }
                index += 1
                skipWhitespace()
                members.append(Node.Member(key: key, value: try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the file inside an object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                throw error("expected \",\" or \"}\" in an object")
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> Node.Value {
            index += 1
            var items: [Node] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array([])
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of the file inside an array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                throw error("expected \",\" or \"]\" in an array")
            }
        }

        mutating func number() throws(SyntaxError) -> Double {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                throw error("a number needs a digit after \"-\"")
            }
            if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1])
            {
                throw error("a number with a leading zero (write 3, not 03)", at: start)
            }
            func digits() {
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            }
            digits()
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let before = index
                digits()
                guard index > before else { throw error("a number needs digits after \".\"") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                let before = index
                digits()
                guard index > before else { throw error("a number needs digits in its exponent") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let number = Double(text), number.isFinite else {
                throw error("the number \(JSONDocument.quoted(text)) is too large", at: start)
            }
            return number
        }

        /// A string's contents. The bytes are valid UTF-8 (``checkUTF8()`` ran first): a string
        /// without escapes is decoded in one piece; one with escapes is gathered as UTF-8 first.
        mutating func string() throws(SyntaxError) -> String {
            let start = index
            index += 1
            var segment = index
            // The string so far, from the first escape on; before one, `segment` is `start + 1`.
            var gathered: [UInt8] = []
            func append(_ scalar: Unicode.Scalar) {
                UTF8.encode(scalar) { gathered.append($0) }
            }
            while true {
                guard index < bytes.count else { throw error("unexpected end of the file inside a string", at: start) }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    if segment == start + 1 { return String(decoding: bytes[segment..<index], as: UTF8.self) }
                    gathered.append(contentsOf: bytes[segment..<index])
                    return String(decoding: gathered, as: UTF8.self)
                }
                if byte < 0x20 {
                    throw error(
                        "a raw control character (byte \(byte)) inside a string; write it as an escape such as \\n")
                }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                gathered.append(contentsOf: bytes[segment..<index])
                let escape = index
                index += 1
                guard index < bytes.count else { throw error("unexpected end of the file inside a string", at: start) }
                switch bytes[index] {
                case UInt8(ascii: "\""): append("\"")
                case UInt8(ascii: "\\"): append("\\")
                case UInt8(ascii: "/"): append("/")
                case UInt8(ascii: "b"): append("\u{08}")
                case UInt8(ascii: "f"): append("\u{0C}")
                case UInt8(ascii: "n"): append("\n")
                case UInt8(ascii: "r"): append("\r")
                case UInt8(ascii: "t"): append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hex(at: index + 1, escape: escape)
                    index += 4
                    if (0xD800...0xDBFF).contains(unit) {
                        guard index + 6 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"),
                            bytes[index + 2] == UInt8(ascii: "u"),
                            case let low = try hex(at: index + 3, escape: escape), (0xDC00...0xDFFF).contains(low)
                        else {
                            throw error(
                                "a lone surrogate \\u\(String(unit, radix: 16, uppercase: true)) (half of a character)",
                                at: escape)
                        }
                        index += 6
                        let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        if let scalar = Unicode.Scalar(value) { append(scalar) }
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        throw error(
                            "a lone surrogate \\u\(String(unit, radix: 16, uppercase: true)) (half of a character)",
                            at: escape)
                    } else if let scalar = Unicode.Scalar(unit) {
                        append(scalar)
                    }
                default:
                    throw error("an unknown escape \(describe(at: index)) in a string", at: escape)
                }
                index += 1
                segment = index
            }
        }

        /// The four hexadecimal digits at `position` (not `UInt32(_:radix:)`, which takes a sign).
        func hex(at position: Int, escape: Int) throws(SyntaxError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("\\u needs four hexadecimal digits", at: escape) }
            var value: UInt32 = 0
            for byte in bytes[position..<position + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("\\u needs four hexadecimal digits", at: escape)
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}
