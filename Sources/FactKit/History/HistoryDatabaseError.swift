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
    var path: String {
        switch self {
        case .cannotCreateDirectory(let path, _), .notADatabase(let path, _), .notReadable(let path, _),
            .notWritable(let path, _), .newerSchema(let path), .failed(let path, _):
            path
        }
    }

    /// What happened to which file, in one line; what to do about it is the app's to say.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            "cannot create the folder for the history database \(path) (\(reason))"
        case .notADatabase(let path, let reason):
            "\(path) is not a usable history database (\(reason)); it was left untouched"
        case .notReadable(let path, let reason):
            "cannot read the history database \(path) (\(reason))"
        case .notWritable(let path, let reason):
            "cannot write the history database \(path) (\(reason))"
        case .newerSchema(let path):
            "the history database \(path) was written by a newer weft"
        case .failed(let path, let reason):
            "the history database \(path) failed (\(reason))"
        }
    }
}
