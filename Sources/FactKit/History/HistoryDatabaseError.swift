/// Why the history database could not be opened or used. Each message names the file.
///
/// weft never deletes, truncates or overwrites a history file it cannot use, and it never
/// writes to a file that is not its own (see ``notAHistoryDatabase(path:tables:tableCount:)``).
public enum HistoryDatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path given for the database is empty.
    case emptyPath
    /// The path names a directory, not a file.
    case isDirectory(path: String)
    /// The path names something that is not a regular file: a device, a FIFO, a socket.
    case notARegularFile(path: String)
    /// The directory that should hold the file could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file exists but is not an SQLite database, or is damaged.
    case notADatabase(path: String, reason: String)
    /// The file is an SQLite database of another program: it neither carries weft's
    /// application id nor has exactly weft's schema. `tables` holds the first few of its
    /// tables by name, `tableCount` how many it has.
    case notAHistoryDatabase(path: String, tables: [String], tableCount: Int)
    /// The file or its directory cannot be read.
    case notReadable(path: String, reason: String)
    /// The file or its directory cannot be written.
    case notWritable(path: String, reason: String)
    /// The file was written by a newer weft, with migrations this version does not know.
    case newerSchema(path: String)
    /// Any other SQLite failure.
    case failed(path: String, reason: String)
    /// No history database is open, so nothing can be recorded.
    case unavailable

    /// The database file concerned; empty for ``emptyPath``.
    var path: String {
        switch self {
        case .emptyPath, .unavailable:
            ""
        case .isDirectory(let path), .notARegularFile(let path), .newerSchema(let path),
            .notAHistoryDatabase(let path, _, _):
            path
        case .cannotCreateDirectory(let path, _), .notADatabase(let path, _), .notReadable(let path, _),
            .notWritable(let path, _), .failed(let path, _):
            path
        }
    }

    /// What happened to which file, in one line; what to do about it is the app's to say.
    public var description: String {
        switch self {
        case .unavailable:
            "No history database is open: the fact was not recorded."
        case .emptyPath:
            "the history database path is empty"
        case .isDirectory(let path):
            "the history database \(path) is a directory, not a file"
        case .notARegularFile(let path):
            "the history database \(path) is not a regular file"
        case .cannotCreateDirectory(let path, let reason):
            "cannot create the folder for the history database \(path) (\(reason))"
        case .notADatabase(let path, let reason):
            "\(path) is not a usable history database (\(reason)); it was left untouched"
        case .notAHistoryDatabase(let path, let tables, let count):
            "\(path) is another program's SQLite database, not a weft history (\(Self.describe(tables, count: count))); it was left untouched"
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

    /// How many table names ``notAHistoryDatabase(path:tables:tableCount:)`` carries at most.
    static let tablesShown = 5

    private static func describe(_ tables: [String], count: Int) -> String {
        let more = count > tables.count ? " and \(count - tables.count) more" : ""
        switch tables.count {
        case 0: return "no tables, but another program's application id"
        case 1: return "its table: \(tables[0])\(more)"
        default: return "its tables: \(tables.joined(separator: ", "))\(more)"
        }
    }
}
