import Foundation
import WeftApp
import WeftInitializer

/// A start-up budget file, as `weft startup --budget FILE` reads it.
///
/// A refusal is a `StartupBudgetFileError` naming the file; a budget accepted holds only
/// limits of 0 ms or more (a limit has a median, a p90 or both), and, written back, reads the
/// same; checking a run against it never traps, and says within budget only when every measure
/// keeps its limits.
enum BudgetTarget {
    static let name = "budget"
    static let path = "/home/someone/startup-budget.json"

    static let run: FuzzTarget = { bytes in
        let budget: StartupBudget
        do throws(StartupBudgetFileError) {
            budget = try StartupBudgetFile.parse(Data(bytes), path: path)
        } catch {
            require(
                error.path == path && error.description.hasPrefix(path + ": ") && !error.problem.isEmpty,
                "a refusal that does not name the file and the problem: \(error)")
            return
        }
        for limit in [budget.ready, budget.total].compactMap({ $0 }) + Array(budget.steps.values) {
            require(limit.median != nil || limit.p90 != nil, "an empty limit was accepted")
            require(
                (limit.median ?? .zero) >= .zero && (limit.p90 ?? .zero) >= .zero, "a negative limit was accepted")
        }
        guard let written = try? JSONEncoder().encode(budget) else { fuzzFailure("an accepted budget does not encode") }
        do throws(StartupBudgetFileError) {
            let again = try StartupBudgetFile.parse(written, path: path)
            require(again == budget, "written back, the budget reads differently")
        } catch {
            fuzzFailure("an accepted budget, written back, is refused: \(error)")
        }
        let run = StartupBudget.Run(
            ready: .milliseconds(10), total: .milliseconds(20),
            steps: Dictionary(uniqueKeysWithValues: budget.steps.keys.map { ($0, Duration.milliseconds(5)) }))
        let check = budget.check([run, run])
        let kept = check.measures.allSatisfy { measure in
            [(measure.median, measure.limit.median), (measure.p90, measure.limit.p90)].allSatisfy { value, limit in
                guard let value, let limit else { return true }
                return value <= limit
            } && measure.missing == 0
        }
        require(check.isWithinBudget == kept, "the verdict disagrees with the measures: \(check)")
        _ = check.description
    }
}
