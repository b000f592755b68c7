import FactKit
import Foundation
public import WeftInitializer

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
        return lines.joined(separator: "\n")
    }

    /// The analysis as one JSON object.
    public var json: String {
        let critical = Set(report.criticalChain.map(\.step.id))
        return JSONLine.encode(
            Document(
                environment: environment,
                outcome: outcome,
                elapsedMs: Self.milliseconds(report.elapsed),
                readyMs: report.ready.map(Self.milliseconds),
                failedStep: failedStep?.id,
                deadlineMs: report.missedDeadline.map(Self.milliseconds),
                criticalChain: report.criticalChain.map(\.step.id),
                blame: report.blame.map(\.step.id),
                steps: report.steps.map { timing in
                    Step(
                        id: timing.step.id, title: timing.step.title, after: timing.step.after,
                        kind: timing.step.kindLabel, optional: timing.step.isOptional,
                        afterReady: timing.step.stage == .afterReady,
                        startMs: Self.milliseconds(timing.startOffset), durationMs: Self.milliseconds(timing.duration),
                        endMs: Self.milliseconds(timing.endOffset), attempts: timing.attempts,
                        outcome: timing.outcome.description, heldBy: timing.heldBy,
                        critical: critical.contains(timing.step.id))
                }))
    }

    private struct Document: Encodable {
        var environment: String?
        var outcome: String
        var elapsedMs: Double
        var readyMs: Double?
        var failedStep: String?
        var deadlineMs: Double?
        var criticalChain: [String]
        var blame: [String]
        var steps: [Step]
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
        if timing.step.stage == .afterReady { notes.append("after ready") }
        if timing.attempts > 1 { notes.append("\(timing.attempts) attempts") }
        if timing.outcome != .finished { notes.append(timing.outcome.description) }
        return notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"
    }

    /// Milliseconds with one decimal.
    private static func milliseconds(_ duration: Duration) -> Double {
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

/// `weft startup`: starts the app once, without showing it, and prints where the start-up's
/// time went. SIGINT or SIGTERM cancels the run and exits 130 or 143.
public enum StartupMode {
    /// Runs the app's initialization once and prints its analysis; returns the status to exit
    /// with: that of `weft --plain` for the same run.
    public static func run(options: AppOptions, json: Bool) async -> ExitStatus {
        await TerminationSignals.cancelling { await runOnce(options: options, json: json) }
    }

    @MainActor
    private static func runOnce(options: AppOptions, json: Bool) async -> ExitStatus {
        let initializer: DependencyInitializer<AppProcess>
        do {
            initializer = try AppPlan.makeInitializer(options: options)
        } catch {
            StandardStreams.writeError("weft startup: the initialization plan is invalid: \(error)")
            return .initializationFailed
        }
        let analysis: StartupAnalysis
        let status: ExitStatus
        do {
            let result = try await initializer.run()
            let app = result.container
            // The whole start-up: ready, then the steps after ready.
            let report = await result.waitForLaterSteps()
            analysis = StartupAnalysis(report: report, environment: app.environment.name)
            await app.shutdown()
            status = app.historyProblem == nil ? .success : .degraded
        } catch let failure as InitializationFailure<AppProcess> {
            analysis = StartupAnalysis(
                report: failure.report, environment: failure.process.environment?.name, failedStep: failure.failedStep,
                cancelled: failure.isCancellation)
            await failure.process.shutdown()
            status = PlainFailure(failure).exitStatus
        } catch {
            StandardStreams.writeError("weft startup: \(error)")
            return .initializationFailed
        }
        StandardStreams.writeOutput(json ? analysis.json : analysis.text)
        return status
    }
}
