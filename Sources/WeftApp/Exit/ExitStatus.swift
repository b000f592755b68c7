import FactKit

/// The status `weft` exits with, for scripts and the e2e test.
///
/// | status | meaning |
/// |---|---|
/// | 0 | the app quit from the main screen, or plain mode printed a fact |
/// | 1 | initialization failed (a server error, a timeout, an unhealthy service, a missed start-up deadline, …), also when the person quits from the error screen |
/// | 2 | usage or environment error: bad arguments, unknown `--env`, a malformed environments file or `config.json` |
/// | 3 | plain mode printed a fact, degraded: the history (`--database`) could not be opened or written, so the fact was not recorded |
/// | 130 | interrupted by SIGINT (Ctrl-C) |
/// | 143 | terminated by SIGTERM |
public enum ExitStatus: Int32, Sendable, Hashable, CaseIterable {
    /// Success.
    case success = 0
    /// Initialization failed.
    case initializationFailed = 1
    /// The command line, an environments file or the history database needs fixing.
    case usageError = 2
    /// Plain mode printed a fact without recording it: the history was unavailable.
    case degraded = 3
    /// `weft startup --budget`: the runs broke the start-up budget.
    case overBudget = 4
    /// SIGINT stopped the run.
    case interrupted = 130
    /// SIGTERM stopped the run.
    case terminated = 143

    /// The status for a run that failed with `error` (the failed step's error).
    ///
    /// Cancellation means the person interrupted the run; errors the person fixes in their
    /// input (`EnvironmentCatalogError`, a `HistoryDatabaseError` other than an
    /// unexpected SQLite failure) are usage errors; everything else is an initialization failure.
    public init(failingWith error: any Error) {
        switch PlainFailure.rootCause(of: error) {
        case is CancellationError:
            self = .interrupted
        case is EnvironmentCatalogError:
            self = .usageError
        case let error as HistoryDatabaseError:
            if case .failed = error { self = .initializationFailed } else { self = .usageError }
        case FactRepositoryError.history(let error):
            self = ExitStatus(failingWith: error)
        default:
            self = .initializationFailed
        }
    }

    /// The status for a run stopped by `interruption`.
    init(_ interruption: Interruption) {
        switch interruption {
        case .interrupt: self = .interrupted
        case .terminate: self = .terminated
        }
    }
}
