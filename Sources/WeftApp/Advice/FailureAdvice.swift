public import FactKit
import Foundation
import Weft
import WeftInitializer
import WeftPrimitives

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
        /// Starts a sentence asking for a longer start-up deadline, such as
        /// `Allow longer with --startup-deadline SECONDS`.
        public var longerDeadline: String

        /// Creates a phrasing.
        public init(
            retry: String, pickAnother: String, pickEmbedded: String, knownEnvironment: String,
            longerDeadline: String = Self.startupDeadlineSetting
        ) {
            self.retry = retry
            self.pickAnother = pickAnother
            self.pickEmbedded = pickEmbedded
            self.knownEnvironment = knownEnvironment
            self.longerDeadline = longerDeadline
        }

        /// Where the deadline is set, for a sentence: `Allow longer with --startup-deadline SECONDS
        /// (or WEFT_STARTUP_DEADLINE, or startupDeadline in config.json)`.
        public static let startupDeadlineSetting =
            "Allow longer with --startup-deadline SECONDS (or WEFT_STARTUP_DEADLINE, or startupDeadline in config.json)"

        /// Actions named as command-line options: `--env NAME`.
        public static let commandLine = Phrasing(
            retry: "Run weft again",
            pickAnother: "choose another environment with --env NAME",
            pickEmbedded: "use --env embedded",
            knownEnvironment:
                "Choose one of the known environments with --env NAME, or leave --env out to use the first."
        )
    }

    /// A hint for `error` (the failed step's error) in `environment`.
    public static func hint(for error: any Error, environment: Environment?, phrasing say: Phrasing = .commandLine)
        -> String
    {
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
        case let error as InitializationDeadlineExceeded:
            return hint(for: error, say: say)
        case is InitializationStepTimeoutError:
            return "The step took too long. \(say.retry), or \(say.pickAnother)."
        case is UnhealthyServices:
            return "A service reported itself unhealthy. \(say.retry), or \(say.pickAnother)."
        default:
            return "\(say.retry), or \(say.pickAnother)."
        }
    }

    /// What happened when the start-up's deadline passed, in one line: `Start-up ran out of time
    /// (1.0 s deadline): "Fetch the first cat fact" held it up`, or `nil` when `error` is not
    /// `InitializationDeadlineExceeded`.
    public static func deadlineSummary(for error: any Error) -> String? {
        guard let error = rootCause(of: error) as? InitializationDeadlineExceeded else { return nil }
        let limit = "Start-up ran out of time (\(secondsText(error.deadline)) deadline)"
        if let step = error.pending.first?.step {
            return limit + ": \"\(step.title)\" held it up"
        }
        return limit + (error.nextStep.map { ", before \"\($0.title)\" started" } ?? "")
    }

    /// `1.0 s`, `2.5 s`, `30.0 s`: a deadline as people set it.
    static func secondsText(_ duration: Duration) -> String {
        duration.secondsText
    }

    /// What to do when the start-up ran out of time: name the step that held it up, then allow
    /// longer or try elsewhere.
    private static func hint(for error: InitializationDeadlineExceeded, say: Phrasing) -> String {
        let held =
            error.pending.first.map { "\"\($0.step.title)\" was still going at the deadline. " }
            ?? "It passed between two steps, none of them still going. "
        return held + "\(say.longerDeadline), or \(say.pickAnother)."
    }

    /// The error a person should read: the container's "factory threw" wrapper removed.
    public static func rootCause(of error: any Error) -> any Error {
        if let error = error as? ResolutionError, error.code == .factoryFailed, let underlying = error.underlyingError {
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
        case .httpStatus(_, 404):
            return "The URL has no fact endpoint: check `source` in the environments file, or \(say.pickAnother)."
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

    /// What to do about a history file weft cannot use; weft never deletes it. One sentence
    /// each, so it reads on one line after the error.
    private static func hint(for error: HistoryDatabaseError) -> String {
        let elsewhere = "or choose another file with --database PATH"
        switch error {
        case .emptyPath:
            return "Give --database the path of a file, or leave it out to use the default history."
        case .isDirectory(let path):
            return "Give --database the path of a file, such as \(path)/history.sqlite."
        case .notARegularFile:
            return "Give --database the path of a regular file (a new one is created), or leave it out."
        case .cannotCreateDirectory:
            return "Create the folder yourself, \(elsewhere)."
        case .notADatabase:
            return "Move the file aside (weft never deletes it), \(elsewhere)."
        case .notAHistoryDatabase:
            return
                "weft keeps its history in a file of its own: choose another file with --database PATH, or leave it out."
        case .notReadable:
            return "Fix the file's permissions, \(elsewhere)."
        case .notWritable:
            return "Make the file and its folder writable, \(elsewhere)."
        case .newerSchema:
            return "Update weft, \(elsewhere)."
        case .failed:
            return "Try again; if it keeps failing, move the history file aside (weft never deletes it) \(elsewhere)."
        case .unavailable:
            return "Run weft again to retry, \(elsewhere)."
        }
    }

    /// What to do when `weft serve` cannot serve, to follow the error on its line.
    static func serveHint(for error: FactServerError) -> String {
        switch error {
        case .noFacts: "reinstall weft or check Assets/facts.json"
        case .needsPrivileges: "run it as root, or choose a port from 1024 up with --port"
        case .portInUse: "stop the other program, or choose another port with --port"
        case .cannotListen(let port, _) where port == 0: "check that loopback networking is available"
        case .cannotListen: "choose another port with --port"
        case .stoppedUnexpectedly: "restart it"
        }
    }
}
