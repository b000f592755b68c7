public import Logging
import WeftPrimitives

/// A log line as a handler received it, with its metadata rendered as text.
public struct LogLine: Sendable, CustomStringConvertible {
    public let level: Logger.Level
    public let message: String
    public let metadata: [String: String]

    /// `level message key=value …`, the metadata sorted by key.
    public var description: String {
        ([level.rawValue, message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(
            separator: " ")
    }
}

/// The lines every handler of one logger received, in order.
///
/// Behind WeftPrimitives' pthread-based lock: ThreadSanitizer on Linux cannot see the standard
/// library's `Mutex`, and servers log from their event-loop threads.
public final class CapturedLog: Sendable {
    private let lines = Locked<[LogLine]>([])

    public init() {}

    public var all: [LogLine] { lines.withLock { $0 } }

    func append(_ line: LogLine) { lines.withLock { $0.append(line) } }

    /// A logger at `level` whose lines end up here.
    public func logger(level: Logger.Level = .info, label: String = "test") -> Logger {
        var logger = Logger(label: label) { _ in CapturingLogHandler(log: self) }
        logger.logLevel = level
        return logger
    }
}

/// A swift-log handler that keeps what it is given in a ``CapturedLog``.
public struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(log: CapturedLog) {
        self.log = log
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        log.append(LogLine(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}
