import Foundation
import Logging
import Synchronization

/// The app's log: lines appended to a file (``WeftPaths/logFile``), never written to the
/// terminal, which the full-screen app owns.
enum AppLog {
    /// A logger at `level` writing to `file`, or `nil` when either is missing or `level` is
    /// not a swift-log level. The file and its folder are made on the first line logged.
    static func logger(level: String?, file: URL?) -> Logger? {
        guard let level = level.flatMap(Logger.Level.init(rawValue:)), let file else { return nil }
        let sink = FileSink(url: file)
        var logger = Logger(label: "weft") { label in FileLogHandler(label: label, sink: sink) }
        logger.logLevel = level
        return logger
    }
}

/// Appends lines to one file, opened on the first line. Shared by the handlers of one logger.
final class FileSink: Sendable {
    private let url: URL
    /// The open file (a `FileHandle` is not `Sendable`: it never leaves the mutex), or whether
    /// opening it failed.
    private let file = Mutex<(handle: FileHandle?, failed: Bool)>((nil, false))

    init(url: URL) {
        self.url = url
    }

    func write(_ line: String) {
        file.withLock { file in
            guard !file.failed else { return }
            if file.handle == nil {
                try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
                file.handle = try? FileHandle(forWritingTo: url)
                _ = try? file.handle?.seekToEnd()
                // A log that cannot be written must not stop the app: the lines are dropped.
                if file.handle == nil { file.failed = true }
            }
            try? file.handle?.write(contentsOf: Data((line + "\n").utf8))
        }
    }
}

/// A swift-log handler writing `time level [label] message metadata` lines to a ``FileSink``.
struct FileLogHandler: LogHandler {
    let label: String
    let sink: FileSink
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = ISO8601DateFormatter().string(from: Date())
        sink.write("\(time) \(event.level) [\(label)] \(event.message)\(details)")
    }
}
