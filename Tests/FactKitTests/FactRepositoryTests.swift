import Foundation
import Testing
import WeftTestSupport

@testable import FactKit

@Suite("FactRepository end to end: bundled server, real client, real SQLite file")
struct FactRepositoryTests {
    @Test("nextFact fetches, records and reports latency and history counts")
    func nextFact() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let history = try HistoryDatabase(url: directory.appendingPathComponent("history.sqlite"))
        let facts = try FactServer.bundledFacts()
        try await withFactServer { _, baseURL in
            let repository = FactRepository(
                service: makeService(baseURL, timeout: .seconds(30)), history: history, environment: "embedded")
            var shown: [Fact] = []
            for _ in 0..<5 { shown.append(try await repository.nextFact()) }
            for fact in shown {
                #expect(facts.contains(fact.text))
                #expect(fact.environment == "embedded")
                #expect(fact.latency > .zero)
                #expect((fact.timesSeen ?? 0) >= 1)
            }
            #expect(shown.map(\.factsStored) == shown.indices.map { index in Set(shown[...index].map(\.text)).count })
            let last = try #require(shown.last)
            #expect(last.timesSeen == shown.filter { $0.text == last.text }.count)
            #expect(try await history.factsStored() == Set(shown.map(\.text)).count)
        }
    }

    @Test("a failed fetch is a service error and records nothing")
    func failedFetch() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let history = try HistoryDatabase(url: directory.appendingPathComponent("history.sqlite"))
        try await withFactServer(fault: .http500) { _, baseURL in
            let repository = FactRepository(
                service: makeService(baseURL, timeout: .seconds(30)), history: history, environment: "broken")
            let error = await #expect(throws: FactRepositoryError.self) { try await repository.nextFact() }
            guard case .service(.httpStatus(_, 500))? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
        #expect(try await history.factsStored() == 0)
    }

    @Test("without a history a fact is fetched and not recorded; recording it then is a history error")
    func withoutHistory() async throws {
        try await withFactServer { _, baseURL in
            let repository = FactRepository(
                service: makeService(baseURL, timeout: .seconds(30)), history: nil, environment: "embedded")
            let fact = try await repository.nextFact()
            #expect(!fact.text.isEmpty && fact.timesSeen == nil && fact.factsStored == nil)
            let error = await #expect(throws: FactRepositoryError.self) { try await repository.record(fact) }
            guard case .history(.unavailable)? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }
}
