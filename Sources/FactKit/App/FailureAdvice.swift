import Foundation
import WeftInitializer

/// What a person can do about an initialization failure, in a sentence.
public enum FailureAdvice {
    /// A hint for `error` (the failed step's error) in `environment`.
    public static func hint(for error: any Error, environment: Environment?) -> String {
        switch error {
        case let error as FactRepositoryError:
            switch error {
            case .service(let error): return hint(for: error, environment: environment)
            case .history(let error): return hint(for: error, environment: environment)
            }
        case let error as FactServiceError:
            return hint(for: error, environment: environment)
        case is HistoryDatabaseError:
            return "Move the history file aside or choose another with --database PATH; weft never deletes it."
        case is EnvironmentCatalogError:
            return "Fix the environments file, or start without --environments to use the bundled one."
        case is FactServerError:
            return "The embedded server could not start. Free the port or pick another environment (e)."
        case is InitializationStepTimeoutError:
            return "The step took too long. Retry (r) or pick another environment (e)."
        case is UnhealthyServices:
            return "A service reported itself unhealthy. Retry (r) or pick another environment (e)."
        default:
            return "Retry (r) or pick another environment (e)."
        }
    }

    private static func hint(for error: FactServiceError, environment: Environment?) -> String {
        let isLocal = environment.map(isLocalServer) ?? false
        switch error {
        case .unreachable, .connectionDropped, .transport:
            if isLocal, let port = environment.flatMap(localPort) {
                return "Is the server running? Try `weft serve --port \(port)` in another terminal."
            }
            return "Check your network connection, or pick the embedded environment (e), which works offline."
        case .timedOut:
            return "The server did not answer in time. Retry (r), or raise timeoutSeconds in the environments file."
        case .httpStatus(_, let code) where code >= 500:
            return "The server is failing (HTTP \(code)). Retry later or pick another environment (e)."
        case .httpStatus(_, let code):
            return "The server refused the request (HTTP \(code)). Check the environment's source URL."
        case .invalidBody, .bodyTooLarge:
            return "The server did not answer with a cat fact. Check the environment's source URL."
        }
    }

    private static func isLocalServer(_ environment: Environment) -> Bool {
        guard case .remote(let url) = environment.source, let host = url.host else { return false }
        return host == "127.0.0.1" || host == "localhost" || host == "::1"
    }

    private static func localPort(_ environment: Environment) -> Int? {
        guard case .remote(let url) = environment.source else { return nil }
        return url.port
    }
}
