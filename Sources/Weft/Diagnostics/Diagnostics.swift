import Foundation

/// How a container reports what happens inside it: a log level and handler, and hooks
/// for slow resolutions and resolution errors.
///
/// ```swift
/// container.diagnostics.logLevel = .warning
/// container.diagnostics.slowResolutionThreshold = .milliseconds(50)
/// container.diagnostics.onSlowResolution = { key, duration in metrics.record(key, duration) }
/// ```
///
/// None of it costs the cached path: timing happens only when a factory runs and a
/// threshold is set; hooks are read only when something is reported.
public struct Diagnostics: Sendable {
    /// How much the container logs.
    public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error
        /// Nothing is logged.
        case off

        public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Messages below this level are dropped. `.off` by default: a library stays silent
    /// unless asked, so it never writes behind a full-screen UI's back.
    public var logLevel: LogLevel = .off
    /// Receives every message at or above ``logLevel``; writes to standard error by default.
    public var logHandler: @Sendable (LogLevel, String) -> Void = Diagnostics.standardError
    /// Factories slower than this are reported to ``onSlowResolution`` and logged as warnings.
    public var slowResolutionThreshold: Duration?
    /// Called with the key and duration of every factory slower than the threshold.
    public var onSlowResolution: (@Sendable (ServiceKey, Duration) -> Void)?
    /// Called with every error of an outermost resolution.
    public var onResolutionError: (@Sendable (ResolutionError) -> Void)?

    /// Default settings: silent, no hooks.
    public init() {}

    /// Writes `[weft] level: message` to standard error.
    public static let standardError: @Sendable (LogLevel, String) -> Void = { level, message in
        FileHandle.standardError.write(Data("[weft] \(level): \(message)\n".utf8))
    }

    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= logLevel, logLevel != .off else { return }
        logHandler(level, message())
    }
}

extension Container {
    /// This container's diagnostics settings. Children copy them when created.
    public var diagnostics: Diagnostics {
        get { state.withLock { $0.diagnostics } }
        set { state.withLock { $0.diagnostics = newValue } }
    }

    func report(_ error: ResolutionError) {
        let diagnostics = self.diagnostics
        diagnostics.onResolutionError?(error)
        diagnostics.log(.error, error.description)
    }

    func noteDuration(_ duration: Duration, of key: ServiceKey) {
        let diagnostics = self.diagnostics
        guard let threshold = diagnostics.slowResolutionThreshold, duration >= threshold else { return }
        diagnostics.onSlowResolution?(key, duration)
        diagnostics.log(.warning, "Resolving \(key) took \(duration), over the \(threshold) threshold.")
    }
}
