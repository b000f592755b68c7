import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Validates an environments file field by field, naming the exact field and its line on
/// failure, and quoting what it found at most 60 characters long.
struct EnvironmentFileParser {
    let file: String

    private static let allowedKeys: Set<String> = ["name", "description", "source", "timeoutSeconds", "fault"]
    private static let minimumTimeoutSeconds = 0.001
    private static let maximumTimeoutSeconds = 600.0

    func parse(_ data: Data) throws(EnvironmentCatalogError) -> [Environment] {
        let root: JSONDocument.Node
        do {
            root = try JSONDocument.parse(Array(data))
        } catch {
            throw .invalidJSON(file: file, reason: error.description)
        }
        guard case .object = root.value else {
            throw invalid("(top level)", root, "expected an object {\"environments\": [...]}, got \(root.summary)")
        }
        guard let list = root["environments"] else {
            throw invalid("environments", root, "missing; expected a list of environments")
        }
        guard case .array(let items) = list.value else {
            throw invalid("environments", list, "expected a list of environments, got \(list.summary)")
        }
        guard !items.isEmpty else {
            throw invalid("environments", list, "expected at least one environment, got an empty list")
        }
        var environments: [Environment] = []
        var firstUse: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let path = "environments[\(index)]"
            let environment = try parseEnvironment(item, at: path)
            if let first = firstUse[environment.name] {
                throw invalid(
                    "\(path).name", item["name"] ?? item,
                    "duplicate name \"\(JSONDocument.quoted(environment.name))\" (already used by environments[\(first)]); names must be unique"
                )
            }
            firstUse[environment.name] = index
            environments.append(environment)
        }
        return environments
    }

    private func parseEnvironment(_ node: JSONDocument.Node, at path: String) throws(EnvironmentCatalogError)
        -> Environment
    {
        guard case .object(let members) = node.value else {
            throw invalid(path, node, "expected an object with name, description and source, got \(node.summary)")
        }
        if let unknown = members.first(where: { !Self.allowedKeys.contains($0.key) }) {
            throw invalid(
                "\(path).\(JSONDocument.quoted(unknown.key))", unknown.value,
                "unknown field; allowed fields are \(Self.allowedKeys.sorted().joined(separator: ", "))")
        }
        let name = try requiredString(node, "name", at: path)
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw invalid(
                "\(path).name", node["name"] ?? node,
                "expected a non-empty name without spaces, got \"\(JSONDocument.quoted(name))\"")
        }
        let description = try requiredString(node, "description", at: path)
        let sourceNode = node["source"]
        let source = try parseSource(
            try requiredString(node, "source", at: path), node: sourceNode ?? node, at: "\(path).source")
        let timeout = try parseTimeout(node["timeoutSeconds"], at: "\(path).timeoutSeconds")
        let fault = try parseFault(node["fault"], source: source, at: "\(path).fault")
        return Environment(name: name, description: description, source: source, timeout: timeout, fault: fault)
    }

    /// A string field, refused when it holds a control or bidirectional-formatting character
    /// (ESC, NUL, U+202E…): names and descriptions are shown in a terminal.
    private func requiredString(_ object: JSONDocument.Node, _ key: String, at path: String)
        throws(EnvironmentCatalogError) -> String
    {
        guard let node = object[key] else {
            throw invalid("\(path).\(key)", object, "missing; expected a string")
        }
        guard case .string(let string) = node.value else {
            throw invalid("\(path).\(key)", node, "expected a string, got \(node.summary)")
        }
        if let bad = string.unicodeScalars.first(where: Self.isHidden) {
            throw invalid(
                "\(path).\(key)", node,
                "holds the invisible character U+\(String(format: "%04X", bad.value)) (a control or text-direction character), got \"\(JSONDocument.quoted(string))\""
            )
        }
        return string
    }

    /// Control characters and invisible formatting (bidirectional overrides, zero-width
    /// characters): they would move the cursor or reorder text on a terminal.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        // Printable ASCII, most of any file, without the Unicode property lookup.
        if (0x20..<0x7F).contains(scalar.value) { return false }
        return switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private func parseSource(_ text: String, node: JSONDocument.Node, at path: String) throws(EnvironmentCatalogError)
        -> Environment.Source
    {
        if text == "embedded" { return .embedded }
        var expected: String { "expected \"embedded\" or an http(s) URL, got \"\(JSONDocument.quoted(text))\"" }
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw invalid(path, node, expected)
        }
        components.scheme = scheme  // HTTP://… is http://…: schemes are case-insensitive
        if let port = components.port, !(1...65535).contains(port) {
            throw invalid(
                path, node, "the port \(port) is out of range (1 to 65535), got \"\(JSONDocument.quoted(text))\"")
        }
        if text.contains("://[") {
            let literal = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            var address = in6_addr()
            guard inet_pton(AF_INET6, literal, &address) == 1 else {
                throw invalid(
                    path, node,
                    "\"\(JSONDocument.quoted(literal))\" is not an IPv6 address, got \"\(JSONDocument.quoted(text))\"")
            }
        }
        guard let url = components.url else { throw invalid(path, node, expected) }
        return .remote(url)
    }

    private func parseTimeout(_ node: JSONDocument.Node?, at path: String) throws(EnvironmentCatalogError) -> Duration {
        guard let node else { return Environment.defaultTimeout }
        guard case .number(let seconds) = node.value, seconds >= Self.minimumTimeoutSeconds,
            seconds <= Self.maximumTimeoutSeconds
        else {
            throw invalid(
                path, node,
                "expected a number of seconds from 0.001 (1 ms) to \(Int(Self.maximumTimeoutSeconds)), got \(node.summary)"
            )
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private func parseFault(_ node: JSONDocument.Node?, source: Environment.Source, at path: String)
        throws(EnvironmentCatalogError) -> ServerFault?
    {
        guard let node else { return nil }
        let choices = ServerFault.names.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .string(let text) = node.value, let fault = ServerFault(rawValue: text) else {
            throw invalid(path, node, "expected one of \(choices), got \(node.summary)")
        }
        guard source == .embedded else {
            throw invalid(
                path, node, "faults apply only to the bundled server; use \"source\": \"embedded\" or remove \"fault\"")
        }
        return fault
    }

    private func invalid(_ field: String, _ node: JSONDocument.Node, _ problem: String) -> EnvironmentCatalogError {
        .invalidField(file: file, line: node.line, field: field, problem: problem)
    }
}
