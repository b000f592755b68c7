public import Foundation
public import WeftInitializer

/// A start-up budget file, as `weft startup --budget FILE` reads it: JSON in the format of
/// `StartupBudget` (`Assets/startup-budget.json` is weft's own).
public enum StartupBudgetFile {
    /// Reads the budget in `url`.
    public static func load(contentsOf url: URL) throws(StartupBudgetFileError) -> StartupBudget {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StartupBudgetFileError(path: url.path, problem: "cannot be read (\(error.localizedDescription))")
        }
        return try parse(data, path: url.path)
    }

    /// Reads a budget from a file's bytes; `path` names the file in errors.
    public static func parse(_ data: Data, path: String) throws(StartupBudgetFileError) -> StartupBudget {
        do {
            return try JSONDecoder().decode(StartupBudget.self, from: data)
        } catch let error as DecodingError {
            throw StartupBudgetFileError(path: path, problem: problem(error))
        } catch {
            throw StartupBudgetFileError(path: path, problem: "\(error)")
        }
    }

    /// A decoding error in words: where in the file, and what.
    private static func problem(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty
                ? "" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + ": "
        }
        switch error {
        case .dataCorrupted(let context):
            guard context.codingPath.isEmpty else { return place(context.codingPath) + context.debugDescription }
            // Not JSON at all: Foundation's reason says where, when it has one.
            let reason = context.underlyingError.flatMap {
                ($0 as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            }
            return "not valid JSON: " + (reason ?? "check its brackets, commas and quotes")
        case .keyNotFound(let key, let context):
            return place(context.codingPath) + "\"\(key.stringValue)\" is missing"
                + (key.stringValue == "version" ? ": write \"version\": \(StartupBudget.formatVersion)" : "")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let expected =
                type == Double.self || type == Int.self
                ? "a number of milliseconds" : type == String.self ? "text" : "an object"
            return place(context.codingPath) + "expected \(expected)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A budget file weft cannot use: which file, and what is wrong in it.
public struct StartupBudgetFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// What is wrong, and where in the file.
    public let problem: String

    public var description: String { "\(path): \(problem)" }
}
