/// Why the history database could not be opened or used. Each message names the file.
///
/// weft never deletes, truncates or overwrites a history file it cannot use.
public enum HistoryDatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory that should hold the file could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file exists but is not an SQLite database, or is damaged.
    case notADatabase(path: String, reason: String)
    /// The file or its directory cannot be read.
    case notReadable(path: String, reason: String)
    /// The file or its directory cannot be written.
    case notWritable(path: String, reason: String)
    /// The file was written by a newer weft, with migrations this version does not know.
    case newerSchema(path: String)
    /// Any other SQLite failure.
    case failed(path: String, reason: String)

    /// The database file concerned.
    public var path: String {
        switch self {
        case .cannotCreateDirectory(let path, _), .notADatabase(let path, _), .notReadable(let path, _),
            .notWritable(let path, _), .newerSchema(let path), .failed(let path, _):
            path
        }
    }

    /// A one-line explanation with what to do next.
    public var description: String {
        let elsewhere = "or choose another file with --database PATH"
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create the folder for the history database \(path) (\(reason)); create it yourself \(elsewhere)"
        case .notADatabase(let path, let reason):
            return "\(path) is not a usable history database (\(reason)); it was left untouched: move it away \(elsewhere)"
        case .notReadable(let path, let reason):
            return "cannot read the history database \(path) (\(reason)); fix its permissions \(elsewhere)"
        case .notWritable(let path, let reason):
            return "cannot write the history database \(path) (\(reason)); make the file and its folder writable \(elsewhere)"
        case .newerSchema(let path):
            return "the history database \(path) was written by a newer weft; update weft \(elsewhere)"
        case .failed(let path, let reason):
            return "the history database \(path) failed (\(reason)); \(elsewhere)"
        }
    }
}
