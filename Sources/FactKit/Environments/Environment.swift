public import Foundation

/// A named place to get cat facts from, as listed in an environments file.
///
/// An environment is plain data; ``EnvironmentCatalog`` reads it from JSON, and the app
/// turns it into a running service (starting the bundled server for ``Source/embedded``).
public struct Environment: Sendable, Hashable, Identifiable {
    /// Where an environment's facts come from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The fact server bundled with weft, started in-process on an ephemeral loopback port.
        case embedded
        /// A running server that speaks the catfact.ninja contract at this `http(s)` base URL.
        case remote(URL)

        /// `embedded` or the base URL, as written in environment files.
        public var description: String {
            switch self {
            case .embedded: "embedded"
            case .remote(let url): url.absoluteString
            }
        }
    }

    /// The request timeout used when an environment does not give `timeoutSeconds`.
    static let defaultTimeout: Duration = .seconds(5)

    /// The unique name, used on the command line and in menus.
    public var name: String
    /// A sentence for a person, shown next to the name in menus.
    public var description: String
    /// Where facts come from.
    public var source: Source
    /// How long one request may take before it fails as timed out.
    public var timeout: Duration
    /// A deliberate server fault; only meaningful for ``Source/embedded``.
    public var fault: ServerFault?

    /// The environment's ``name``.
    public var id: String { name }

    /// Creates an environment.
    init(
        name: String,
        description: String,
        source: Source,
        timeout: Duration = Environment.defaultTimeout,
        fault: ServerFault? = nil
    ) {
        self.name = name
        self.description = description
        self.source = source
        self.timeout = timeout
        self.fault = fault
    }
}
