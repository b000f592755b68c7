import FactKit
public import Foundation

/// What the person asked for on the command line.
public struct AppOptions: Sendable, Hashable {
    /// The environment to start in; the catalog's first one when `nil`.
    public var environmentName: String?
    /// A replacement environments file; the bundled one when `nil`.
    public var environmentsFile: URL?
    /// The history database; ``HistoryDatabase/defaultURL(environment:)`` when `nil`.
    public var databaseURL: URL?

    public init(environmentName: String? = nil, environmentsFile: URL? = nil, databaseURL: URL? = nil) {
        self.environmentName = environmentName
        self.environmentsFile = environmentsFile
        self.databaseURL = databaseURL
    }

    /// Where the history database lives.
    var resolvedDatabaseURL: URL { databaseURL ?? HistoryDatabase.defaultURL() }
}
