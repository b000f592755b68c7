import Foundation
import Testing

@testable import WeftInitializer

/// Decodes a budget file's text.
private func budget(_ json: String) throws -> StartupBudget {
    try JSONDecoder().decode(StartupBudget.self, from: Data(json.utf8))
}

/// What decoding `json` fails with, as text.
private func problem(_ json: String) -> String {
    do {
        _ = try budget(json)
        return "decoded"
    } catch let DecodingError.dataCorrupted(context) {
        return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
    } catch {
        return "\(error)"
    }
}

/// One run of env (sync) → fact (`factMs`, needed for ready) → warm (10 ms, after ready) on a
/// manual clock the helper moves; returns the whole run's report.
@MainActor
private func measuredRun(factMs: Int) async throws -> InitializationReport {
    let clock = ManualClock()
    let initializer = try DependencyInitializer(
        createProcess: { TestProcess() },
        steps: [
            .sync("env") { $0.append("env") },
            .async("fact", after: ["env"]) { _ in try await clock.sleep(for: .milliseconds(factMs)) },
            .async("warm", after: ["fact"], schedule: .afterReady) { _ in try await clock.sleep(for: .milliseconds(10))
            },
        ],
        clock: InitializationClock(clock))
    let run = Task { try await initializer.run() }
    guard await clock.waitForSleepers(1) else {
        run.cancel()
        throw CancellationError()
    }
    clock.advance(by: .milliseconds(factMs))
    let result = try await run.value
    guard await clock.waitForSleepers(1) else {
        result.cancelLaterSteps()
        throw CancellationError()
    }
    clock.advance(by: .milliseconds(10))
    return await result.waitForLaterSteps()
}

@MainActor
@Suite("Launch budgets", .timeLimit(.minutes(1)))
struct StartupBudgetTests {
    static let file = #"""
        {
          "version": 1,
          "ready": {"medianMs": 60, "p90Ms": 100},
          "total": {"medianMs": 80},
          "steps": {"fact": {"medianMs": 60}}
        }
        """#

    @Test("A budget file reads as written, and writes back the same")
    func decoding() throws {
        let read = try budget(Self.file)
        #expect(read.ready == .init(median: .milliseconds(60), p90: .milliseconds(100)))
        #expect(read.total == .init(median: .milliseconds(80)))
        #expect(read.steps == ["fact": .init(median: .milliseconds(60))])
        let written = try JSONEncoder().encode(read)
        #expect(try JSONDecoder().decode(StartupBudget.self, from: written) == read)
        #expect(String(decoding: written, as: UTF8.self).contains(#""version":1"#))
    }

    @Test(
        "A bad budget file says what is wrong and where",
        arguments: [
            (
                #"{"version": 2}"#,
                "version: this is a version 2 budget; this version of WeftInitializer reads version 1"
            ),
            (#"{"version": 1, "ready": {"medianMs": -5}}"#, "ready.medianMs: -5.0 is below zero"),
            (#"{"version": 1, "ready": {}}"#, "ready: a limit needs \"medianMs\", \"p90Ms\" or both"),
            (
                #"{"version": 1, "ready": {"medianMS": 5}}"#,
                "ready.medianMS: unknown key \"medianMS\": did you mean \"medianMs\"?"
            ),
            (#"{"version": 1, "redy": {"medianMs": 5}}"#, "redy: unknown key \"redy\": did you mean \"ready\"?"),
            (#"{"version": 1, "steps": {"fact": {"p90Ms": 1.5}}}"#, "steps.fact.p90Ms: 1.5 is not a whole number"),
        ])
    func badFiles(json: String, expected: String) {
        #expect(problem(json).contains(expected), "\(problem(json))")
    }

    @Test("Median and 90th percentile by nearest rank; one run is both")
    func nearestRank() {
        let values = (1...10).map { Duration.milliseconds($0 * 10) }
        #expect(StartupBudget.nearestRank(0.5, of: values.shuffled()) == .milliseconds(50))
        #expect(StartupBudget.nearestRank(0.9, of: values.shuffled()) == .milliseconds(90))
        #expect(StartupBudget.nearestRank(0.5, of: [.milliseconds(7)]) == .milliseconds(7))
        #expect(StartupBudget.nearestRank(0.9, of: [.milliseconds(7)]) == .milliseconds(7))
        #expect(StartupBudget.nearestRank(0.5, of: []) == nil)
        // Five runs: the median is the third, the 90th percentile the fifth.
        let five = [30, 10, 50, 20, 40].map { Duration.milliseconds($0) }
        #expect(StartupBudget.nearestRank(0.5, of: five) == .milliseconds(30))
        #expect(StartupBudget.nearestRank(0.9, of: five) == .milliseconds(50))
    }

    @Test("Real runs within the budget pass; with the fact step 3× slower, the budget names it and the factor")
    func threeTimesSlower() async throws {
        let limits = try budget(Self.file)
        var reports: [InitializationReport] = []
        for _ in 0..<3 { reports.append(try await measuredRun(factMs: 30)) }
        let check = limits.check(reports)
        #expect(check.isWithinBudget, "\(check)")
        #expect(check.measures.map(\.name) == ["ready", "total", "step fact"])
        #expect(check.measures.first?.median == .milliseconds(30))
        #expect(check.description.contains("within budget"))

        var slow: [InitializationReport] = []
        for _ in 0..<3 { slow.append(try await measuredRun(factMs: 90)) }
        let slowCheck = limits.check(slow)
        #expect(!slowCheck.isWithinBudget)
        let fact = try #require(slowCheck.breaches.first { $0.measure == "step fact" })
        #expect(fact.kind == .over(.median, value: .milliseconds(90), limit: .milliseconds(60)))
        #expect(fact.factor == 1.5)
        #expect(Set(slowCheck.breaches.map(\.measure)) == ["ready", "total", "step fact"])
        #expect(slowCheck.description.contains("✗ step fact"))
        #expect(
            slowCheck.description.contains(
                "step fact: the median is 90 ms, over its limit of 60 ms (1.5× its limit). Make it faster, or, "
                    + "if the new time is intended, raise the limit in the budget file."), "\(slowCheck)")
    }

    @Test("A measure missing from a run breaks the budget; a step no run has is named with the closest id")
    func missingAndUnknown() {
        let limits = StartupBudget(
            ready: .init(median: .seconds(1)),
            steps: ["fetch": .init(median: .seconds(1)), "history": .init(p90: .seconds(1))])
        let runs = [
            StartupBudget.Run(ready: .milliseconds(10), total: .milliseconds(20), steps: ["fact": .milliseconds(5)]),
            StartupBudget.Run(
                ready: nil, total: .milliseconds(20), steps: ["fact": .milliseconds(5), "history": .zero]),
        ]
        let check = limits.check(runs)
        #expect(!check.isWithinBudget)
        #expect(
            check.breaches.map(\.kind) == [.missing(1, of: 2), .missing(1, of: 2), .unknownStep(closest: "fact")])
        #expect(check.breaches.last?.measure == "step fetch")
        #expect(
            check.description.contains(#"step fetch: the budget limits it, but no run has it: did you mean "fact"?"#))
        #expect(check.description.contains("ready: missing from 1 of 2 runs"))
        let none = StartupBudget().check([StartupBudget.Run]())
        #expect(!none.isWithinBudget)
        #expect(none.breaches.map(\.kind) == [.noRuns])
    }

    @Test("A budget whose only fault is a misspelt step id has a breach: a gate on breaches fails on it")
    func typoIsABreach() {
        let budget = StartupBudget(steps: ["histroy": .init(median: .seconds(1))])
        let check = budget.check([StartupBudget.Run(ready: .zero, total: .zero, steps: ["history": .zero])])
        #expect(!check.breaches.isEmpty)
        #expect(!check.isWithinBudget)
        #expect("\(check.breaches[0])".contains(#"did you mean "history"?"#))
    }

    @Test func aChainOfStepsIsCheckedAtTheirMedianLimitsAgainstReady() throws {
        let limits = try budget(
            #"{"version": 1, "ready": {"medianMs": 500}, "steps": {"a": {"medianMs": 300}, "b": {"p90Ms": 900}, "c": {"medianMs": 250}}}"#
        )
        // b has no median limit: it takes no time.
        #expect(limits.check(chain: ["a", "b"]) == nil)
        let breach = try #require(limits.check(chain: ["a", "b", "c"]))
        #expect(breach.measure == "ready (chain: a → b → c)")
        #expect(breach.kind == .over(.median, value: .milliseconds(550), limit: .milliseconds(500)))
        #expect("\(breach)".hasPrefix("ready (chain: a → b → c): the median is 550 ms, over its limit of 500 ms"))
        #expect(StartupBudget(steps: ["a": .init(median: .seconds(9))]).check(chain: ["a"]) == nil)
    }
}
