import Foundation

/// Gets the next fact from an environment's service and records it in the history, when there
/// is one.
///
/// ```swift
/// let repository = FactRepository(service: service, history: history, environment: "embedded")
/// let fact = try await repository.nextFact()
/// print(fact.text, fact.timesSeen, fact.latency)
/// ```
public struct FactRepository: Sendable {
    /// The service facts are fetched from.
    let service: FactService
    /// The history facts are recorded in; `nil` when none could be opened.
    let history: HistoryDatabase?
    /// The environment name recorded with each fact.
    public let environment: String

    /// Creates a repository.
    ///
    /// - Parameters:
    ///   - service: Where facts come from.
    ///   - history: Where shown facts are recorded; `nil` to show facts without recording them.
    ///   - environment: The environment's name, recorded with each fact.
    public init(service: FactService, history: HistoryDatabase?, environment: String) {
        self.service = service
        self.history = history
        self.environment = environment
    }

    /// Fetches a fact, records it when there is a history, and returns it with its latency and
    /// history counts.
    ///
    /// A fact that cannot be fetched is not recorded.
    public func nextFact() async throws(FactRepositoryError) -> Fact {
        let fact = try await fetchFact()
        guard history != nil else { return fact }
        return try await record(fact)
    }

    /// Fetches a fact without recording it: its history counts are `nil`.
    public func fetchFact() async throws(FactRepositoryError) -> Fact {
        let clock = ContinuousClock()
        let started = clock.now
        let served: CatFact
        do {
            served = try await service.fetchFact()
        } catch {
            throw .service(error)
        }
        return Fact(
            text: served.fact, environment: environment, latency: clock.now - started, timesSeen: nil,
            factsStored: nil, fetchedAt: Date())
    }

    /// Records `fact` in the history and returns it with its counts.
    /// - Throws: ``FactRepositoryError/history(_:)`` when there is no history or it cannot
    ///   be written.
    public func record(_ fact: Fact) async throws(FactRepositoryError) -> Fact {
        guard let history else { throw .history(.unavailable) }
        let counts: HistoryCounts
        do {
            counts = try await history.record(fact.text, environment: environment, fetchedAt: fact.fetchedAt)
        } catch {
            throw .history(error)
        }
        var recorded = fact
        recorded.timesSeen = counts.timesSeen
        recorded.factsStored = counts.factsStored
        return recorded
    }
}
