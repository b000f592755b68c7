import Foundation

/// Validates an environments file field by field, naming the exact field on failure.
struct EnvironmentFileParser {
    let file: String

    private static let allowedKeys: Set<String> = ["name", "description", "source", "timeoutSeconds", "fault"]
    private static let maximumTimeoutSeconds = 600.0

    func parse(_ data: Data) throws(EnvironmentCatalogError) -> [Environment] {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .invalidJSON(file: file, reason: Self.reason(for: error))
        }
        guard case .object(let top) = root else {
            throw invalid("(top level)", "expected an object {\"environments\": [...]}, got \(root.summary)")
        }
        guard let list = top["environments"] else {
            throw invalid("environments", "missing; expected a list of environments")
        }
        guard case .array(let items) = list else {
            throw invalid("environments", "expected a list of environments, got \(list.summary)")
        }
        return try items.enumerated().map { (index, item) throws(EnvironmentCatalogError) in
            try parseEnvironment(item, at: "environments[\(index)]")
        }
    }

    private func parseEnvironment(_ value: JSONValue, at path: String) throws(EnvironmentCatalogError) -> Environment {
        guard case .object(let fields) = value else {
            throw invalid(path, "expected an object with name, description and source, got \(value.summary)")
        }
        if let unknown = fields.keys.sorted().first(where: { !Self.allowedKeys.contains($0) }) {
            throw invalid("\(path).\(unknown)", "unknown field; allowed fields are \(Self.allowedKeys.sorted().joined(separator: ", "))")
        }
        let name = try requiredString(fields, "name", at: path)
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, !name.contains(where: \.isWhitespace) else {
            throw invalid("\(path).name", "expected a non-empty name without spaces, got \"\(name)\"")
        }
        let description = try requiredString(fields, "description", at: path)
        let source = try parseSource(try requiredString(fields, "source", at: path), at: "\(path).source")
        let timeout = try parseTimeout(fields["timeoutSeconds"], at: "\(path).timeoutSeconds")
        let fault = try parseFault(fields["fault"], source: source, at: "\(path).fault")
        return Environment(name: name, description: description, source: source, timeout: timeout, fault: fault)
    }

    private func requiredString(_ fields: [String: JSONValue], _ key: String, at path: String) throws(EnvironmentCatalogError) -> String {
        guard let value = fields[key] else {
            throw invalid("\(path).\(key)", "missing; expected a string")
        }
        guard case .string(let string) = value else {
            throw invalid("\(path).\(key)", "expected a string, got \(value.summary)")
        }
        return string
    }

    private func parseSource(_ text: String, at path: String) throws(EnvironmentCatalogError) -> Environment.Source {
        if text == "embedded" { return .embedded }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else {
            throw invalid(path, "expected \"embedded\" or an http(s) URL, got \"\(text)\"")
        }
        return .remote(url)
    }

    private func parseTimeout(_ value: JSONValue?, at path: String) throws(EnvironmentCatalogError) -> Duration {
        guard let value else { return Environment.defaultTimeout }
        guard case .number(let seconds) = value, seconds > 0, seconds <= Self.maximumTimeoutSeconds else {
            throw invalid(path, "expected a number of seconds greater than 0 and at most \(Int(Self.maximumTimeoutSeconds)), got \(value.summary)")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private func parseFault(_ value: JSONValue?, source: Environment.Source, at path: String) throws(EnvironmentCatalogError) -> ServerFault? {
        guard let value else { return nil }
        let choices = ServerFault.names.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .string(let text) = value, let fault = ServerFault(rawValue: text) else {
            throw invalid(path, "expected one of \(choices), got \(value.summary)")
        }
        guard source == .embedded else {
            throw invalid(path, "faults apply only to the bundled server; use \"source\": \"embedded\" or remove \"fault\"")
        }
        return fault
    }

    private func invalid(_ field: String, _ problem: String) -> EnvironmentCatalogError {
        .invalidField(file: file, field: field, problem: problem)
    }

    private static func reason(for error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return "\(error)"
    }
}
