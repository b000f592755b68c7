import Testing

@testable import FactKit

@Suite("JSONDocument: the strict reader's places")
struct JSONDocumentTests {
    /// Every value's column, in document order.
    func columns(of text: String) throws -> [Int] {
        var columns: [Int] = []
        func walk(_ node: JSONDocument.Node) {
            columns.append(node.column)
            switch node.value {
            case .array(let items): items.forEach(walk)
            case .object(let members): members.forEach { walk($0.value) }
            default: break
            }
        }
        walk(try JSONDocument.parse(Array(text.utf8)))
        return columns
    }

    @Test(
        "columns count characters on a long line, after accents, emoji, flags and combining marks",
        arguments: [
            (
                #"[1, "é", 2, "😀😀", 3, "e\#u{301}", [4, {"k": "ü", "l": 5}]]"#,
                [1, 2, 5, 10, 13, 19, 22, 27, 28, 31, 37, 47]
            ),
            (#"{"a":"naïve","b":["日本語",true],"c":{"d":null,"e":"x"}}"#, [1, 6, 18, 19, 25, 35, 40, 49]),
            ("[\"a\",\n  \"é\", 7,\n\"\u{1F1EB}\u{1F1F7}\", 8]", [1, 2, 3, 8, 1, 6]),
            (#"["\#u{301}x", 1]"#, [1, 2, 7]),
        ])
    func columns(text: String, expected: [Int]) throws {
        #expect(try columns(of: text) == expected)
    }

    @Test("a syntax error late on one long line names its column")
    func errorColumn() {
        let text = "[" + Array(repeating: "\"é\"", count: 2_000).joined(separator: ",") + ", 01]"
        #expect(
            throws: JSONDocument.SyntaxError(
                problem: "a number with a leading zero (write 3, not 03)", line: 1, column: 2 + 4 * 2_000 + 1)
        ) {
            try JSONDocument.parse(Array(text.utf8))
        }
    }

    @Test(
        "\\u takes four hexadecimal digits and nothing else (a sign once slipped through)",
        arguments: [#"["\u+DC0"]"#, #"["\u-123"]"#, #"["\u 12a"]"#, #"["\u12"]"#, #"["\u00g1"]"#])
    func unicodeEscapeDigits(text: String) {
        #expect(throws: JSONDocument.SyntaxError(problem: "\\u needs four hexadecimal digits", line: 1, column: 3)) {
            try JSONDocument.parse(Array(text.utf8))
        }
    }

    @Test("\\u escapes in either case read as their characters")
    func unicodeEscapes() throws {
        let node = try JSONDocument.parse(Array(#"["\u00e9\u00C9\uD83D\uDE00"]"#.utf8))
        guard case .array(let items) = node.value, case .string(let text) = items.first?.value else {
            Issue.record("got \(node)")
            return
        }
        #expect(text == "éÉ😀")
    }
}
