public import Logging
import WeftPrimitives

/// How a container reports what happens inside it: a swift-log `Logger`, and hooks for slow
/// resolutions and resolution errors.
///
/// ```swift
/// container.diagnostics.logger = Logger(label: "weft.container")  // else Logger(label: "weft")
/// container.diagnostics.slowResolutionThreshold = .milliseconds(50)
/// container.diagnostics.onSlowResolution = { key, duration in metrics.record(key, duration) }
/// ```
///
/// None of it costs the cached path: timing happens only when a factory runs and a
/// threshold is set; hooks are read only when something is reported.
public struct Diagnostics: Sendable {
    /// Where the container logs, with metadata (`weft.key`, `weft.duration`). Its log level
    /// is the one that applies.
    ///
    /// By default `Logger(label: "weft")`, as swift-log has libraries do: the logs go where the
    /// app's `LoggingSystem.bootstrap` sends them, to standard error at `info` when the app sets
    /// nothing, so a warning reaches someone without set-up. An app that owns the terminal (a
    /// full-screen UI) or wants silence says so: it bootstraps the logging system, or sets a
    /// logger here. Made when something is logged, so the logging system the app bootstrapped by
    /// then applies.
    public var logger: Logger {
        get { chosenLogger ?? Logger(label: "weft") }
        set { chosenLogger = newValue }
    }
    private var chosenLogger: Logger?
    /// Factories slower than this are reported to ``onSlowResolution`` and logged as warnings.
    public var slowResolutionThreshold: Duration?
    /// Called with the key and duration of every factory slower than the threshold.
    public var onSlowResolution: (@Sendable (ServiceKey, Duration) -> Void)?
    /// Called with every resolve once set, for a debug trace: the key, the lifetime, whether
    /// the value was cached or created, and how long it took.
    ///
    /// Costs nothing while `nil`. While set, cached values are read under the container's lock
    /// instead of lock-free, so that no read escapes the trace: set it to debug, not in production.
    public var onResolution: (@Sendable (ResolutionTrace) -> Void)?
    /// Called with every error of an outermost resolution, including the failures that
    /// ``Container/resolve(_:name:file:line:)`` turns into `nil`.
    public var onResolutionError: (@Sendable (ResolutionError) -> Void)?

    /// Whether a `.scoped` service resolved from a root container fails with
    /// ``ResolutionError/Code/scopedOutsideScope`` instead of being made with a warning.
    ///
    /// A root container (one without a parent) is no scope: a `.scoped` value made there is
    /// kept as long as the root, a singleton in all but name, usually because a singleton or a
    /// root-level resolve reached a per-request service. In a debug build (`DEBUG` defined, as
    /// SwiftPM's and Xcode's debug configurations do) the mistake is an error by default, as
    /// ASP.NET Core's `ValidateScopes` is in Development: the resolve throws, naming the
    /// service and the path that reached it. In a release build the value is made and
    /// ``logger`` warns (on standard error unless the app sends logs elsewhere), so a shipped
    /// app keeps working. Set it either way to choose. Checked
    /// only when a value is created.
    public var validatesScopes = Diagnostics.validatesScopesByDefault

    /// ``validatesScopes``'s default: `true` in a debug build, `false` in a release build.
    public static var validatesScopesByDefault: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// Default settings: silent, no hooks; scopes validated in a debug build.
    public init() {}

    /// The threshold the engine times factories against: the slow-resolution one, or zero
    /// while tracing (every creation is timed).
    var timingThreshold: Duration? {
        slowResolutionThreshold ?? (onResolution != nil ? .zero : nil)
    }
}

/// One resolve, as ``Diagnostics/onResolution`` sees it.
public struct ResolutionTrace: Sendable, CustomStringConvertible {
    /// The service resolved.
    public let key: ServiceKey
    /// Its registration's lifetime, when known.
    public let lifetime: Lifetime?
    /// Whether a cached value was handed out (`true`) or a factory ran (`false`).
    public let wasCached: Bool
    /// How long the factory ran; zero for a cached value.
    public let duration: Duration

    public var description: String {
        "\(key) (\(lifetime.map { "\($0)" } ?? "inherited")): \(wasCached ? "cached" : "created in \(duration)")"
    }
}

extension Container {
    /// This container's diagnostics settings. Children copy them when created.
    public var diagnostics: Diagnostics {
        get { state.withLock { $0.diagnostics } }
        set {
            state.withLock { state in
                state.diagnostics = newValue
                state.cache.setSuspended(newValue.onResolution != nil, to: snapshot)
                state.cache.setPublishesTransients(newValue.timingThreshold == nil && recorder == nil, to: snapshot)
            }
        }
    }

    /// Traces a cached value handed out, when tracing.
    func traceCached(_ key: ServiceKey, _ trace: (@Sendable (ResolutionTrace) -> Void)?, lifetime: Lifetime?) {
        guard let trace else { return }
        trace(ResolutionTrace(key: key, lifetime: lifetime, wasCached: true, duration: .zero))
        diagnostics.logger.debug("Resolved \(key): cached", metadata: ["weft.key": "\(key)"])
    }

    /// A `.scoped` service about to be made in this container, a root: a warning, or with
    /// ``Diagnostics/validatesScopes`` the error.
    func checkScope(of key: ServiceKey, path: [ServiceKey]) throws(ResolutionError) {
        let diagnostics = self.diagnostics
        let error = ResolutionError.scopedOutsideScope(key, path: path)
        if diagnostics.validatesScopes { throw error }
        diagnostics.logger.warning("\(sited(error).description)", metadata: ["weft.key": "\(key)"])
    }

    /// Reports an outermost resolution's error: to the hook, and to the log at `debug`, as
    /// swift-log's guidelines ask of a library: the caller has an error thrown to it, and
    /// ``Diagnostics/onResolutionError`` one that `resolve(_:)` turns into `nil`.
    func report(_ error: ResolutionError, swallowed: Bool = false) {
        let diagnostics = self.diagnostics
        diagnostics.onResolutionError?(error)
        diagnostics.logger.log(
            level: .debug,
            swallowed ? "resolve gave nil: \(error.description)" : "\(error.description)",
            metadata: ["weft.key": "\(error.key)"])
    }

    func noteDuration(_ duration: Duration, of key: ServiceKey) {
        let diagnostics = self.diagnostics
        if let trace = diagnostics.onResolution {
            let lifetime = registration(for: key)?.registration.lifetime
            trace(ResolutionTrace(key: key, lifetime: lifetime, wasCached: false, duration: duration))
            diagnostics.logger.debug(
                "Resolved \(key): created in \(duration)",
                metadata: [
                    "weft.key": "\(key)", "weft.lifetime": "\(lifetime.map { "\($0)" } ?? "inherited")",
                    "weft.duration": "\(duration)",
                ]
            )
        }
        guard let threshold = diagnostics.slowResolutionThreshold, duration >= threshold else { return }
        diagnostics.onSlowResolution?(key, duration)
        diagnostics.logger.warning(
            "Resolving \(key) took \(duration), over the \(threshold) threshold.",
            metadata: ["weft.key": "\(key)", "weft.duration": "\(duration)"]
        )
    }
}
