import Foundation
import Weft
import WeftInitializer

/// What a person can do about an initialization failure, in a sentence.
public enum FailureAdvice {
    /// Who reads the hint, which decides how actions are named.
    public enum Audience: Sendable {
        /// The full-screen app: actions are keys, "retry (r)".
        case interactive
        /// The command line: actions are options, "--env NAME".
        case commandLine
    }

    /// A hint for `error` (the failed step's error) in `environment`.
    public static func hint(for error: any Error, environment: Environment?, audience: Audience = .interactive) -> String {
        let say = Phrases(audience: audience)
        switch rootCause(of: error) {
        case is CancellationError:
            return ""
        case let error as FactRepositoryError:
            switch error {
            case .service(let error): return hint(for: error, environment: environment, say: say)
            case .history: return say.moveDatabase
            }
        case let error as FactServiceError:
            return hint(for: error, environment: environment, say: say)
        case is HistoryDatabaseError:
            return say.moveDatabase
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

    private static func hint(for error: FactServiceError, environment: Environment?, say: Phrases) -> String {
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

    private struct Phrases {
        let audience: Audience

        var retry: String { audience == .interactive ? "Retry (r)" : "Run weft again" }
        var pickAnother: String {
            audience == .interactive ? "pick another environment (e)" : "choose another environment with --env NAME"
        }
        var pickEmbedded: String {
            audience == .interactive ? "pick the embedded environment (e)" : "use --env embedded"
        }
        var knownEnvironment: String {
            audience == .interactive
                ? "Pick one of the known environments (e)."
                : "Choose one of the known environments with --env NAME, or leave --env out to use the first."
        }
        var moveDatabase: String {
            "Move the history file aside or choose another with --database PATH; weft never deletes it."
        }
    }
}
