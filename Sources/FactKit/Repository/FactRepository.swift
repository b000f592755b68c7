import Foundation

/// Gets the next fact from an environment's service and records it in the history.
///
/// ```swift
/// let repository = FactRepository(service: service, history: history, environment: "embedded")
/// let fact = try await repository.nextFact()
/// print(fact.text, fact.timesSeen, fact.latency)
/// ```
public struct FactRepository: Sendable {
    /// The service facts are fetched from.
    let service: FactService
    /// The history facts are recorded in.
    let history: HistoryDatabase
    /// The environment name recorded with each fact.
    public let environment: String

    /// Creates a repository.
    ///
    /// - Parameters:
    ///   - service: Where facts come from.
    ///   - history: Where shown facts are recorded.
    ///   - environment: The environment's name, recorded with each fact.
    public init(service: FactService, history: HistoryDatabase, environment: String) {
        self.service = service
        self.history = history
        self.environment = environment
    }

    /// Fetches a fact, records it, and returns it with its latency and history counts.
    ///
    /// A fact that cannot be fetched is not recorded.
    public func nextFact() async throws(FactRepositoryError) -> Fact {
        let clock = ContinuousClock()
        let started = clock.now
        let served: CatFact
        do {
            served = try await service.fetchFact()
        } catch {
            throw .service(error)
        }
        let latency = clock.now - started
        let fetchedAt = Date()
        let counts: HistoryCounts
        do {
            counts = try await history.record(served.fact, environment: environment, fetchedAt: fetchedAt)
        } catch {
            throw .history(error)
        }
        return Fact(
            text: served.fact, environment: environment, latency: latency,
            timesSeen: counts.timesSeen, factsStored: counts.factsStored, fetchedAt: fetchedAt)
    }
}
