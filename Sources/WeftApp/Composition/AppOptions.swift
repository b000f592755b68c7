public import FactKit
public import Foundation

/// What the person asked for on the command line.
public struct AppOptions: Sendable, Hashable {
    /// The environment to start in; the catalog's first one when `nil`.
    public var environmentName: String?
    /// A replacement environments file; the bundled one when `nil`.
    public var environmentsFile: URL?
    /// A file of environments added to the bundled ones (replacing any of the same name);
    /// ignored when ``environmentsFile`` is set.
    public var userEnvironmentsFile: URL?
    /// The history database; `HistoryDatabase.defaultURL(environment:)` when `nil`.
    public var databaseURL: URL?
    /// The level at which the app logs (`info`, `debug`, …) to ``logFile``; silent when `nil`.
    public var logLevel: String?
    /// Where the app logs: a file, never the terminal (the full-screen app owns it).
    public var logFile: URL?
    /// Where to write each run's start-up as a Chrome trace (Perfetto, `chrome://tracing`).
    public var traceFile: URL?
    /// How long a start-up may take before it stops, naming the steps still going; no limit
    /// when `nil`. Repeat runs (a retry, another environment) keep it.
    public var startupDeadline: Duration?
    /// Whether the full-screen app takes clicks and the wheel (the `mouse` setting); off, the
    /// terminal selects text with the mouse as usual.
    public var mouse = true
    /// Whether the full-screen app draws the cursor on the focus (the `a11y` setting,
    /// `--a11y`); it is parked there, hidden, either way.
    public var showsCursor = false
    /// How many times its timeout a start-up step may take before it times out: 1, as planned,
    /// in the app. Test suites raise it: hundreds of tests at once on a loaded machine can hold
    /// a step past its timeout for reasons that are not the step's (tests of timeouts move a
    /// clock of their own instead). Not a setting a person can change.
    public var stepTimeoutScale = 1

    public init(
        environmentName: String? = nil, environmentsFile: URL? = nil, userEnvironmentsFile: URL? = nil,
        databaseURL: URL? = nil
    ) {
        self.environmentName = environmentName
        self.environmentsFile = environmentsFile
        self.userEnvironmentsFile = userEnvironmentsFile
        self.databaseURL = databaseURL
    }

    /// The environments these options choose from: the replacement file, or the bundled list
    /// with the user file's environments added.
    public func catalog() throws(EnvironmentCatalogError) -> EnvironmentCatalog {
        if let environmentsFile { return try EnvironmentCatalog.load(contentsOf: environmentsFile) }
        let bundled = try EnvironmentCatalog.bundled()
        guard let userEnvironmentsFile else { return bundled }
        return bundled.adding(try EnvironmentCatalog.load(contentsOf: userEnvironmentsFile))
    }

    /// Where the history database lives.
    var resolvedDatabaseURL: URL { databaseURL ?? HistoryDatabase.defaultURL() }

    /// Where the history database lives.
    public var resolvedDatabase: URL { resolvedDatabaseURL }
}
