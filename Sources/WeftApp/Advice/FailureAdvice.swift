public import FactKit
import Foundation
import Weft
import WeftInitializer

/// What a person can do about an initialization failure, in a sentence.
///
/// Errors from the domain carry facts (a path, a URL, a status, the underlying error); the
/// advice is the app's. A hint names actions through a ``Phrasing``: the command line names
/// options (``Phrasing/commandLine``), the full-screen app names the keys of its key map.
public enum FailureAdvice {
    /// How a hint names the actions a person can take next.
    public struct Phrasing: Sendable {
        /// Starts a sentence asking to try again, such as `Run weft again`.
        public var retry: String
        /// Asks to pick another environment, mid-sentence.
        public var pickAnother: String
        /// Asks to pick the embedded environment, which works offline, mid-sentence.
        public var pickEmbedded: String
        /// A sentence asking to pick one of the known environments.
        public var knownEnvironment: String

        /// Creates a phrasing.
        public init(retry: String, pickAnother: String, pickEmbedded: String, knownEnvironment: String) {
            self.retry = retry
            self.pickAnother = pickAnother
            self.pickEmbedded = pickEmbedded
            self.knownEnvironment = knownEnvironment
        }

        /// Actions named as command-line options: `--env NAME`.
        public static let commandLine = Phrasing(
            retry: "Run weft again",
            pickAnother: "choose another environment with --env NAME",
            pickEmbedded: "use --env embedded",
            knownEnvironment: "Choose one of the known environments with --env NAME, or leave --env out to use the first."
        )
    }

    /// A hint for `error` (the failed step's error) in `environment`.
    public static func hint(for error: any Error, environment: Environment?, phrasing say: Phrasing = .commandLine) -> String {
        switch rootCause(of: error) {
        case is CancellationError:
            return ""
        case let error as FactRepositoryError:
            switch error {
            case .service(let error): return hint(for: error, environment: environment, say: say)
            case .history(let error): return hint(for: error)
            }
        case let error as FactServiceError:
            return hint(for: error, environment: environment, say: say)
        case let error as HistoryDatabaseError:
            return hint(for: error)
        case EnvironmentCatalogError.unknownEnvironment:
            return say.knownEnvironment
        case is EnvironmentCatalogError:
            return "Fix the environments file, or start without --environments to use the bundled one."
        case is FactServerError:
            return "The embedded server could not start. Free the port or \(say.pickAnother)."
        case is InitializationStepTimeoutError:
            return "The step took too long. \(say.retry), or \(say.pickAnother)."
        case is UnhealthyServices:
            return "A service reported itself unhealthy. \(say.retry), or \(say.pickAnother)."
        default:
            return "\(say.retry), or \(say.pickAnother)."
        }
    }

    /// The error a person should read: the container's "factory threw" wrapper removed.
    public static func rootCause(of error: any Error) -> any Error {
        if case .factoryFailed(_, _, let underlying) = error as? ResolutionError {
            return rootCause(of: underlying)
        }
        return error
    }

    private static func hint(for error: FactServiceError, environment: Environment?, say: Phrasing) -> String {
        switch error {
        case .cancelled:
            return ""
        case .unreachable, .connectionDropped, .transport:
            if let environment, let port = localPort(of: environment) {
                return "Is the server running? Try `weft serve --port \(port)` in another terminal."
            }
            return "Check your network connection, or \(say.pickEmbedded), which works offline."
        case .timedOut:
            return "The server did not answer in time. \(say.retry), or raise timeoutSeconds in the environments file."
        case .httpStatus(_, let code) where code >= 500:
            return "The server is failing (HTTP \(code)). Retry later or \(say.pickAnother)."
        case .httpStatus(_, let code):
            return "The server refused the request (HTTP \(code)). Check the environment's source URL."
        case .invalidBody, .bodyTooLarge:
            return "The server did not answer with a cat fact. Check the environment's source URL."
        }
    }

    /// The port of an environment served from this machine, such as staging.
    private static func localPort(of environment: Environment) -> Int? {
        guard case .remote(let url) = environment.source, let host = url.host,
              ["127.0.0.1", "localhost", "::1"].contains(host)
        else { return nil }
        return url.port
    }

    /// What to do about a history file weft cannot use; weft never deletes it.
    private static func hint(for error: HistoryDatabaseError) -> String {
        let elsewhere = "or choose another file with --database PATH"
        switch error {
        case .cannotCreateDirectory:
            return "Create the folder yourself, \(elsewhere)."
        case .notADatabase:
            return "The file was left untouched: move it aside, \(elsewhere); weft never deletes it."
        case .notReadable:
            return "Fix the file's permissions, \(elsewhere)."
        case .notWritable:
            return "Make the file and its folder writable, \(elsewhere)."
        case .newerSchema:
            return "Update weft, \(elsewhere)."
        case .failed:
            return "Move the history file aside or choose another with --database PATH; weft never deletes it."
        }
    }

    /// What to do when `weft serve` cannot serve, to follow the error on its line.
    static func serveHint(for error: FactServerError) -> String {
        switch error {
        case .noFacts: "reinstall weft or check Assets/facts.json"
        case .cannotListen(let port, _) where port == 0: "check that loopback networking is available"
        case .cannotListen: "the port may be in use, choose another with --port"
        case .stoppedUnexpectedly: "restart it"
        }
    }
}
