/// Why ``FactRepository/nextFact()`` failed: fetching or recording.
public enum FactRepositoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The fact could not be fetched.
    case service(FactServiceError)
    /// The fact was fetched but could not be recorded in the history.
    case history(HistoryDatabaseError)

    /// The underlying error's explanation.
    public var description: String {
        switch self {
        case .service(let error): error.description
        case .history(let error): error.description
        }
    }
}
