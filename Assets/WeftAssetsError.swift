public import Foundation

/// Why an embedded asset could not be read.
public enum WeftAssetsError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// No file of this name is in `Assets/` at build time.
    case missing(name: String, available: [String])
    /// The generated code does not decode; the build's generated sources are out of date.
    case damaged(name: String)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .missing(let name, let available):
            "no asset named \(name) is built into weft (it has: \(available.joined(separator: ", "))); "
                + "add the file to Assets/ and rebuild"
        case .damaged(let name):
            "the built-in asset \(name) does not decode; rebuild weft"
        }
    }

    /// The same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
