import Foundation
import WeftInitializer

/// The ready block, then the budget block on its steps (the article shows them in that order,
/// with the report, the trace and the metrics between them).
@MainActor
func startReadyFirst() async throws {
    // doc begins
    let readySteps =
        steps + [
            .async("warm", title: "Warm the image cache", after: ["fact"], schedule: .afterReady) { _ in
                try await Task.sleep(for: .milliseconds(5))
            }
        ]
    let ready = try await DependencyInitializer(
        createProcess: { AppProcess(environment: .production) }, steps: readySteps
    ).run()
    // Show the first screen now; the cache warms meanwhile.
    print(ready.report.steps.count)  // 5
    let whole = await ready.waitForLaterSteps()
    print(whole.stepsAfterReady.map(\.step.id))  // ["warm"]
    // doc ends
    precondition(whole.ready.map { $0 <= whole.elapsed } == true, "ready comes first")
    // doc begins
    let budget = try JSONDecoder().decode(
        StartupBudget.self,
        from: Data(#"{"version": 1, "ready": {"medianMs": 2000}, "steps": {"fact": {"medianMs": 1000}}}"#.utf8))
    var reports: [InitializationReport] = []
    for _ in 0..<5 {
        let run = try await DependencyInitializer(
            createProcess: { AppProcess(environment: .production) }, steps: readySteps
        ).run()
        reports.append(await run.waitForLaterSteps())
    }
    let check = budget.check(reports)
    print(check)  // within budget
    // A CI gate: any breach fails it, a misspelt step id too.
    guard check.isWithinBudget else { exit(1) }
    // doc ends
    precondition(check.isWithinBudget && check.measures.count == 2, "\(check)")
}
