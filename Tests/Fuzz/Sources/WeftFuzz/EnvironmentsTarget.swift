import FactKit
import Foundation

/// The environments file: `EnvironmentCatalog`'s parser and the strict JSON reader under it.
///
/// - The reader refuses with a line and a column, and accepts nothing Foundation's
///   `JSONSerialization` refuses; what it accepts, written back as JSON, reads the same.
/// - The catalogue refuses with the file and a line (a syntax error) or the file, a line and
///   the field's path; what it accepts, written back as an environments file, reads the same.
enum EnvironmentsTarget {
    static let name = "environments"
    static let file = "environments.json"

    static let run: FuzzTarget = { bytes in
        checkReader(bytes)
        checkCatalog(bytes)
    }

    static func checkReader(_ bytes: [UInt8]) {
        let node: JSONDocument.Node
        do {
            node = try JSONDocument.parse(bytes)
        } catch {
            require(error.line >= 1 && error.column >= 1, "a syntax error without its place: \(error)")
            require(error.description.contains("at line \(error.line), column \(error.column)"), "\(error)")
            return
        }
        guard (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil else {
            fuzzFailure(
                "the strict reader accepted what JSONSerialization refuses", String(decoding: bytes, as: UTF8.self))
        }
        let written = render(node)
        guard let again = try? JSONDocument.parse(Array(written.utf8)) else {
            fuzzFailure("a value written back does not read: \(written)")
        }
        require(same(node, again), "a value written back reads differently: \(written)")
    }

    static func checkCatalog(_ bytes: [UInt8]) {
        let catalog: EnvironmentCatalog
        do {
            catalog = try EnvironmentCatalog(data: Data(bytes), file: file)
        } catch {
            require(error.description.hasPrefix(file), "an error that does not name the file: \(error)")
            switch error {
            case .invalidJSON(_, let reason):
                require(
                    reason.contains("at line") && reason.contains("column"),
                    "a syntax error without its place: \(error)")
            case .invalidField(_, let line, let field, let problem):
                require(line != nil && !field.isEmpty && !problem.isEmpty, "a field error without its place: \(error)")
            default:
                fuzzFailure("an error of a kind parsing cannot give: \(error)")
            }
            return
        }
        let written = environmentsFile(catalog.environments)
        let again: EnvironmentCatalog
        do {
            again = try EnvironmentCatalog(data: Data(written.utf8), file: file)
        } catch {
            fuzzFailure("an accepted file, written back, is refused: \(error)\n\(written)")
        }
        require(
            again.environments == catalog.environments, "an accepted file, written back, reads differently:\n\(written)"
        )
    }

    /// The environments as a file `weft` reads.
    static func environmentsFile(_ environments: [Environment]) -> String {
        let items = environments.map { environment in
            let (seconds, attoseconds) = environment.timeout.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            var fields = [
                "\"name\": \(jsonString(environment.name))",
                "\"description\": \(jsonString(environment.description))",
                "\"source\": \(jsonString(environment.source.description))",
                "\"timeoutSeconds\": \(Double(milliseconds) / 1000)",
            ]
            if let fault = environment.fault { fields.append("\"fault\": \(jsonString(fault.rawValue))") }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        return "{\"environments\": [" + items.joined(separator: ",\n") + "]}"
    }

    /// `node` as JSON text.
    static func render(_ node: JSONDocument.Node) -> String {
        switch node.value {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): jsonString(value)
        case .array(let items): "[" + items.map(render).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { jsonString($0.key) + ":" + render($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// Whether two values are the same, wherever they were written.
    static func same(_ a: JSONDocument.Node, _ b: JSONDocument.Node) -> Bool {
        switch (a.value, b.value) {
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default: a.value == b.value
        }
    }
}
