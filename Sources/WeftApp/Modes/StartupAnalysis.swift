import FactKit
public import Foundation
import Weft
public import WeftInitializer
import WeftStartup

/// Where a start-up's time went, as `weft startup` prints it: the critical chain (like
/// `systemd-analyze critical-chain`) and the blame list, as text or one JSON object.
public struct StartupAnalysis: Sendable {
    /// The run's report.
    let report: InitializationReport
    /// The environment the run started.
    let environment: String?
    /// The step that failed the run, if it failed: for a cancelled run the step it was in, for a
    /// missed deadline the step that held it up.
    let failedStep: InitializationStepInfo?
    /// Whether the run was cancelled (Ctrl-C, SIGTERM) rather than failed.
    let wasCancelled: Bool

    /// Analyses `report`, a run in `environment` that failed in `failedStep` if given, or was
    /// cancelled during it when `cancelled` is true. A report with a
    /// `InitializationReport.missedDeadline` reads as a start-up that ran out of time.
    public init(
        report: InitializationReport, environment: String?, failedStep: InitializationStepInfo? = nil,
        cancelled: Bool = false
    ) {
        self.report = report
        self.environment = environment
        self.failedStep = failedStep
        self.wasCancelled = cancelled && failedStep != nil
    }

    /// `finished`, `degraded`, `failed`, `missedDeadline` or `cancelled`.
    var outcome: String {
        guard failedStep != nil else { return report.isDegraded ? "degraded" : "finished" }
        if wasCancelled { return "cancelled" }
        return report.missedDeadline != nil ? "missedDeadline" : "failed"
    }

    /// The first line: how the start-up ended, and where.
    private var headline: String {
        let place = environment.map { " in environment \"\($0)\"" } ?? ""
        let elapsed = Self.format(report.elapsed)
        guard let failedStep else {
            var headline = "weft started\(place) in \(elapsed)"
            if let ready = report.ready, !report.stepsAfterReady.isEmpty {
                headline =
                    "weft was ready\(place) in \(Self.format(ready)) (the fact on screen); every step had ended at "
                    + elapsed
            }
            if report.isDegraded {
                let failed = report.steps.filter { $0.outcome == .failed }.map(\.step)
                    .map { "\"\($0.title)\"" }.joined(separator: ", ")
                headline += " (degraded: \(failed) failed)"
            }
            return headline
        }
        if wasCancelled {
            return "weft's start-up\(place) was interrupted after \(elapsed), during \"\(failedStep.title)\""
        }
        if let deadline = report.missedDeadline {
            return "weft failed to start\(place): it ran out of time at its \(FailureAdvice.secondsText(deadline)) "
                + "deadline; \"\(failedStep.title)\" held it up"
        }
        return "weft failed to start\(place) after \(elapsed): \"\(failedStep.title)\" failed"
    }

    /// The analysis as lines of text.
    public var text: String {
        var lines: [String] = []
        lines.append(headline)
        lines.append("")
        lines.append("The time when a step ended is after \"@\", the time it took after \"+\".")
        let later = report.stepsAfterReady
        if let ready = report.ready, !later.isEmpty {
            let titles = later.map { "\"\($0.step.title)\"" }.joined(separator: ", ")
            lines.append("Ready at \(Self.format(ready)): \(titles) ran after ready, off the first screen's path.")
        }
        lines.append("")
        lines.append("critical chain:")
        for (depth, timing) in report.criticalChain.reversed().enumerated() {
            let indent = depth == 0 ? "" : String(repeating: "   ", count: depth - 1) + "└─ "
            lines.append(
                "\(indent)\(timing.step.title) @\(Self.format(timing.endOffset)) +\(Self.format(timing.duration))"
                    + Self.notes(timing))
        }
        lines.append("")
        lines.append("blame:")
        let blame = report.blame
        let width = blame.map { Self.format($0.duration).count }.max() ?? 0
        for timing in blame {
            let duration = Self.format(timing.duration)
            lines.append(
                String(repeating: " ", count: width - duration.count + 2) + "\(duration)  \(timing.step.title)"
                    + Self.notes(timing))
        }
        for step in report.skippedSteps {
            lines.append(String(repeating: " ", count: width + 4) + "\(step.title) (skipped)")
        }
        lines.append("")
        lines += plannedText
        return lines.joined(separator: "\n")
    }

    /// The services whose steps were planned from the container (``AppPlan/servicePlan``), in
    /// plan order, and those it leaves to their first use.
    private var plannedText: [String] {
        let plan = AppPlan.servicePlan
        let width = plan.services.map(\.id.count).max() ?? 0
        var lines = ["planned from the container (the service, then the step that makes it):"]
        for service in plan.services {
            let title = AppPlan.serviceOptions[service.key]?.title ?? service.id
            let after =
                service.after.isEmpty ? "" : " (after \(service.after.map(\.description).joined(separator: ", ")))"
            let later = service.timing == .afterReady ? " (after ready)" : ""
            lines.append(
                "  \(service.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(title)\(after)\(later)")
        }
        lines.append(
            "left to their first use: "
                + (plan.onDemand.isEmpty ? "none" : plan.onDemand.map(\.description).joined(separator: ", ")))
        return lines
    }

    /// The analysis as one JSON object.
    public var json: String { json(budget: nil) }

    /// The analysis as one JSON object, with the budget check when there is one: `budget` has
    /// `withinBudget`, each measure's `medianMs` and `p90Ms`, and the breaches in words.
    func json(budget check: StartupBudgetCheck?) -> String {
        let critical = Set(report.criticalChain.map(\.step.id))
        return JSONLine.encode(
            Document(
                budget: check.map(BudgetDocument.init),
                environment: environment,
                outcome: outcome,
                elapsedMs: Self.milliseconds(report.elapsed),
                readyMs: report.ready.map(Self.milliseconds),
                failedStep: failedStep?.id,
                deadlineMs: report.missedDeadline.map(Self.milliseconds),
                criticalChain: report.criticalChain.map(\.step.id),
                blame: report.blame.map(\.step.id),
                planned: AppPlan.servicePlan.services.map { service in
                    Planned(
                        service: service.id, step: AppPlan.stepID(of: service),
                        after: service.after.map(\.description), afterReady: service.timing == .afterReady)
                },
                onDemand: AppPlan.servicePlan.onDemand.map(\.description),
                steps: report.steps.map { timing in
                    Step(
                        id: timing.step.id, title: timing.step.title, after: timing.step.after,
                        kind: timing.step.kindLabel, optional: timing.step.isOptional,
                        afterReady: timing.step.schedule == .afterReady,
                        startMs: Self.milliseconds(timing.startOffset), durationMs: Self.milliseconds(timing.duration),
                        endMs: Self.milliseconds(timing.endOffset), attempts: timing.attempts,
                        outcome: timing.outcome.description, heldBy: timing.heldBy,
                        critical: critical.contains(timing.step.id))
                }))
    }

    private struct Document: Encodable {
        var budget: BudgetDocument?
        var environment: String?
        var outcome: String
        var elapsedMs: Double
        var readyMs: Double?
        var failedStep: String?
        var deadlineMs: Double?
        var criticalChain: [String]
        var blame: [String]
        /// The services whose steps were planned from the container, and the steps' ids.
        var planned: [Planned]
        /// The services the plan leaves to their first use.
        var onDemand: [String]
        var steps: [Step]
    }

    private struct Planned: Encodable {
        var service: String
        var step: String
        var after: [String]
        var afterReady: Bool
    }

    private struct BudgetDocument: Encodable {
        var withinBudget: Bool
        var runs: Int
        var measures: [Measure]
        var breaches: [String]

        struct Measure: Encodable {
            var name: String
            var medianMs: Double?
            var p90Ms: Double?
            var ok: Bool
        }

        init(_ check: StartupBudgetCheck) {
            withinBudget = check.isWithinBudget
            runs = check.runs
            measures = check.measures.map {
                Measure(
                    name: $0.name, medianMs: $0.median.map(StartupAnalysis.milliseconds),
                    p90Ms: $0.p90.map(StartupAnalysis.milliseconds), ok: $0.breaches.isEmpty)
            }
            breaches = check.breaches.map(\.description)
        }
    }

    private struct Step: Encodable {
        var id: String
        var title: String
        var after: [String]
        var kind: String
        var optional: Bool
        var afterReady: Bool
        var startMs: Double
        var durationMs: Double
        var endMs: Double
        var attempts: Int
        var outcome: String
        var heldBy: String?
        var critical: Bool
    }

    /// ` (3 attempts, failed)`: what the duration alone does not say.
    private static func notes(_ timing: InitializationStepTiming) -> String {
        var notes: [String] = []
        if timing.step.schedule == .afterReady { notes.append("after ready") }
        if timing.attempts > 1 { notes.append("\(timing.attempts) attempts") }
        if timing.outcome != .finished { notes.append(timing.outcome.description) }
        return notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"
    }

    /// Milliseconds with one decimal.
    fileprivate static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 10_000 + Double(attoseconds) / 1e14).rounded() / 10
    }

    /// `0.4 ms`, `84 ms`, `1.25 s`.
    static func format(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        if milliseconds < 10 { return String(format: "%.1f ms", milliseconds) }
        if milliseconds < 1_000 { return "\(Int(milliseconds.rounded())) ms" }
        return String(format: "%.2f s", milliseconds / 1_000)
    }
}

/// `weft startup`: starts the app once (or `runs` times), without showing it, and prints where
/// the start-up's time went; with a budget, checks the runs against it. SIGINT or SIGTERM
/// cancels the run and exits 130 or 143.
public enum StartupMode {
    /// Runs the app's initialization once and prints its analysis; returns the status to exit
    /// with: that of `weft --plain` for the same run.
    public static func run(options: AppOptions, json: Bool) async -> ExitStatus {
        await run(options: options, json: json, runs: 1, budget: nil)
    }

    /// Runs the app's initialization `runs` times, one after the other, and prints the last
    /// run's analysis; with `budget`, then the budget check over every run's whole report
    /// (ready, total, each step). A failed run stops there and exits as `weft --plain` would;
    /// runs over budget exit ``ExitStatus/overBudget``, and so does a plan whose planned services
    /// alone take longer than ready may at the budget's step limits (said on standard error first).
    public static func run(options: AppOptions, json: Bool, runs: Int, budget: StartupBudget?) async -> ExitStatus {
        await TerminationSignals.cancelling {
            await runAll(options: options, json: json, runs: max(runs, 1), budget: budget)
        }
    }

    /// As ``run(options:json:runs:budget:)``, with the budget read from `budgetFile` (when
    /// given) first: a file weft cannot use is a usage error, said on standard error.
    public static func run(options: AppOptions, json: Bool, runs: Int, budgetFile: URL?) async -> ExitStatus {
        var budget: StartupBudget?
        if let budgetFile {
            do {
                budget = try StartupBudgetFile.load(contentsOf: budgetFile)
            } catch {
                StandardStreams.writeError("weft startup: the budget file \(error)")
                return .usageError
            }
        }
        return await run(options: options, json: json, runs: runs, budget: budget)
    }

    @MainActor
    private static func runAll(options: AppOptions, json: Bool, runs: Int, budget: StartupBudget?) async -> ExitStatus {
        // Checked before any run: the planned services alone, at the budget's step limits, can
        // take longer than ready may.
        let planBreach = budget?.check(AppPlan.servicePlan, id: AppPlan.stepID)
        if let planBreach {
            StandardStreams.writeError("weft startup: the plan is over budget before it runs: \(planBreach)")
        }
        var reports: [InitializationReport] = []
        var last: (analysis: StartupAnalysis, status: ExitStatus)?
        for _ in 0..<runs {
            guard let (analysis, status, report) = await runOnce(options: options) else { return .initializationFailed }
            last = (analysis, status)
            guard let report else {
                // The run failed: its analysis says where; no budget is checked on a failed start-up.
                StandardStreams.writeOutput(json ? analysis.json : analysis.text)
                return status
            }
            reports.append(report)
        }
        guard let (analysis, status) = last else { return .initializationFailed }
        let check = budget?.check(reports)
        if json {
            StandardStreams.writeOutput(analysis.json(budget: check))
        } else {
            var text = analysis.text
            if runs > 1 { text += "\n\n" + summary(of: reports) }
            if let check { text += "\n\n" + check.description }
            StandardStreams.writeOutput(text)
        }
        if let check, !check.isWithinBudget || planBreach != nil { return .overBudget }
        return status
    }

    /// `over 5 runs: ready median 40 ms, p90 52 ms; total median 44 ms, p90 60 ms`.
    private static func summary(of reports: [InitializationReport]) -> String {
        func statistics(_ values: [Duration]) -> String {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return "—" }
            let median = sorted[(sorted.count + 1) / 2 - 1]
            let p90 = sorted[min(sorted.count, Int((0.9 * Double(sorted.count)).rounded(.up))) - 1]
            return "median \(StartupAnalysis.format(median)), p90 \(StartupAnalysis.format(p90))"
        }
        return "over \(reports.count) runs: ready \(statistics(reports.compactMap(\.ready))); "
            + "total \(statistics(reports.map(\.elapsed)))"
    }

    /// One start-up: its analysis, the status `weft --plain` would exit with, and the whole
    /// run's report when it succeeded; `nil` when the plan itself is invalid (said on standard error).
    @MainActor
    private static func runOnce(options: AppOptions) async -> (StartupAnalysis, ExitStatus, InitializationReport?)? {
        let initializer: DependencyInitializer<AppProcess>
        do {
            initializer = try AppPlan.makeInitializer(options: options)
        } catch {
            StandardStreams.writeError("weft startup: the initialization plan is invalid: \(error)")
            return nil
        }
        do {
            let result = try await initializer.run()
            let app = result.container
            // The whole start-up: ready, then the steps after ready.
            let report = await result.waitForLaterSteps()
            let analysis = StartupAnalysis(report: report, environment: app.environment.name)
            await app.shutdown()
            return (analysis, app.historyProblem == nil ? .success : .degraded, report)
        } catch let failure as InitializationFailure<AppProcess> {
            let analysis = StartupAnalysis(
                report: failure.report, environment: failure.process.environment?.name, failedStep: failure.failedStep,
                cancelled: failure.isCancellation)
            await failure.process.shutdown()
            return (analysis, PlainFailure(failure).exitStatus, nil)
        } catch {
            StandardStreams.writeError("weft startup: \(error)")
            return nil
        }
    }
}
