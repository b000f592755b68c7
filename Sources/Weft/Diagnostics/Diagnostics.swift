public import Logging

/// How a container reports what happens inside it: a swift-log `Logger`, and hooks for slow
/// resolutions and resolution errors.
///
/// ```swift
/// container.diagnostics.logger = Logger(label: "weft")   // silent until you pass one
/// container.diagnostics.slowResolutionThreshold = .milliseconds(50)
/// container.diagnostics.onSlowResolution = { key, duration in metrics.record(key, duration) }
/// ```
///
/// None of it costs the cached path: timing happens only when a factory runs and a
/// threshold is set; hooks are read only when something is reported.
public struct Diagnostics: Sendable {
    /// Where the container logs, with metadata (`weft.key`, `weft.duration`). Its log level
    /// is the one that applies. A no-op logger by default: a library stays silent unless
    /// asked, so it never writes behind a full-screen UI's back.
    public var logger = Logger(label: "weft", factory: { _ in SwiftLogNoOpLogHandler() })
    /// Factories slower than this are reported to ``onSlowResolution`` and logged as warnings.
    public var slowResolutionThreshold: Duration?
    /// Called with the key and duration of every factory slower than the threshold.
    public var onSlowResolution: (@Sendable (ServiceKey, Duration) -> Void)?
    /// Called with every error of an outermost resolution, including the failures that
    /// ``Container/resolve(_:name:)`` turns into `nil`.
    public var onResolutionError: (@Sendable (ResolutionError) -> Void)?

    /// Default settings: silent, no hooks.
    public init() {}
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
        diagnostics.logger.error("\(error.description)", metadata: ["weft.key": "\(error.key)"])
    }

    func noteDuration(_ duration: Duration, of key: ServiceKey) {
        let diagnostics = self.diagnostics
        guard let threshold = diagnostics.slowResolutionThreshold, duration >= threshold else { return }
        diagnostics.onSlowResolution?(key, duration)
        diagnostics.logger.warning(
            "Resolving \(key) took \(duration), over the \(threshold) threshold.",
            metadata: ["weft.key": "\(key)", "weft.duration": "\(duration)"]
        )
    }
}
