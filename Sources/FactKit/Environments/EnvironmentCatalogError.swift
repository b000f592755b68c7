/// Why an environments file could not be used, or a name was not found in it.
///
/// Every message names the file and, where there is one, the field, then says what was
/// expected, so a person can fix the file without reading code.
public enum EnvironmentCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(file: String, reason: String)
    /// The path is not a file holding environments: `problem` says what it is instead, such
    /// as `is a directory`, `is empty` or `is not a regular file`.
    case notAnEnvironmentsFile(file: String, problem: String)
    /// The file is not valid JSON.
    case invalidJSON(file: String, reason: String)
    /// A field is missing, has the wrong type or an invalid value. `field` is a path
    /// such as `environments[2].source`; `line` is where its value (or its object) starts
    /// in the file, `nil` for environments made in memory.
    case invalidField(file: String, line: Int?, field: String, problem: String)
    /// No environment has the requested name.
    case unknownEnvironment(name: String, known: [String])

    /// A one-line explanation with what to do next.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "\(file): cannot read the environments file (\(reason)); check the path and its permissions"
        case .invalidJSON(let file, let reason):
            "\(file): not valid JSON (\(reason)); expected {\"environments\": [{\"name\": …, \"description\": …, \"source\": …}]}"
        case .notAnEnvironmentsFile(let file, let problem):
            "\(file) \(problem); an environments file is JSON: {\"environments\": [{\"name\": …, \"description\": …, \"source\": …}]}"
        case .invalidField(let file, let line?, let field, let problem):
            "\(file):\(line): \(field): \(problem)"
        case .invalidField(let file, nil, let field, let problem):
            "\(file): \(field): \(problem)"
        case .unknownEnvironment(let name, let known):
            "unknown environment \"\(name)\"; known environments: \(known.joined(separator: ", "))"
        }
    }
}
