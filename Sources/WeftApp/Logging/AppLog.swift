import Foundation
public import Logging
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The app's log: lines appended to a file (``WeftPaths/logFile``), never written to the
/// terminal, which the full-screen app owns.
public enum AppLog {
    /// A logger that logs nothing: what every container of the app logs through unless
    /// `--log-level` and a log file are set, since the terminal is the full-screen app's (a
    /// library's default logger writes to standard error).
    public static var silent: Logger { Logger(label: "weft", factory: { _ in SwiftLogNoOpLogHandler() }) }

    /// A logger at `level` writing to `file`; a silent one when either is missing or `level` is
    /// not a swift-log level, since the terminal is the app's (a library's default logger would
    /// write to standard error behind the full-screen screens). The file and its folder are made
    /// on the first line logged.
    static func logger(level: String?, file: URL?) -> Logger {
        guard let level = level.flatMap(Logger.Level.init(rawValue:)), let file else { return silent }
        let sink = FileSink(url: file)
        var logger = Logger(label: "weft") { label in FileLogHandler(label: label, sink: sink) }
        logger.logLevel = level
        return logger
    }
}

/// Appends lines to one file, opened on the first line. Shared by the handlers of one logger.
///
/// The file is opened in append mode, so each line lands whole at the end of the file even while
/// another `weft` writes the same log. Its descriptor is kept behind a pthread-based lock rather
/// than the standard library's `Mutex`, which ThreadSanitizer on Linux cannot see: it reports
/// the accesses such a lock orders as races.
final class FileSink: Sendable {
    private enum State: Sendable {
        case unopened
        case open(CInt)
        /// A log that cannot be written must not stop the app: its lines are dropped.
        case failed
    }

    private let url: URL
    private let state = NIOLockedValueBox(State.unopened)

    init(url: URL) {
        self.url = url
    }

    deinit {
        if case .open(let descriptor) = state.withLockedValue({ $0 }) { close(descriptor) }
    }

    func write(_ line: String) {
        state.withLockedValue { state in
            if case .unopened = state {
                try? FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                state = openForAppending(url.path).map(State.open) ?? .failed
            }
            guard case .open(let descriptor) = state else { return }
            append(Array((line + "\n").utf8), to: descriptor)
        }
    }
}

/// A descriptor writing at the end of `path`, which is made if missing.
private func openForAppending(_ path: String) -> CInt? {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    return descriptor >= 0 ? descriptor : nil
}

/// Writes all of `bytes`, unless the file refuses them.
private func append(_ bytes: [UInt8], to descriptor: CInt) {
    var rest = bytes[...]
    while !rest.isEmpty {
        let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        rest = rest.dropFirst(written)
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
        let details =
            merged.isEmpty
            ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        // A format style is a value: no formatter object is made for each line.
        let time = Date.now.formatted(.iso8601)
        sink.write("\(time) \(event.level) [\(label)] \(event.message)\(details)")
    }
}
