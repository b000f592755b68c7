import FactKit
import Foundation
import WeftInitializer

/// Runs the app's initialization plan once without the full-screen UI, reporting every
/// event and then the fact (or the failure) through a ``PlainReporter``.
///
/// ```swift
/// let status = await PlainSession(options: options, reporter: reporter).run()
/// exit(status.rawValue)
/// ```
///
/// Cancelling the task that awaits ``run()`` cancels the run; the session then stops any
/// server it started and returns ``ExitStatus/interrupted``.
@MainActor
struct PlainSession {
    /// What the person asked for on the command line.
    let options: AppOptions
    /// Where the lines go.
    let reporter: PlainReporter

    /// Creates a session.
    init(options: AppOptions, reporter: PlainReporter) {
        self.options = options
        self.reporter = reporter
    }

    /// Writes the run's Chrome trace to the file the options name, if any; says so when it cannot.
    private func writeTrace(_ report: InitializationReport) {
        guard let url = options.traceFile else { return }
        do {
            try Data(report.traceEventJSON().utf8).write(to: url, options: .atomic)
        } catch {
            reporter.notice("could not write the trace to \(url.path): \(error.localizedDescription)")
        }
    }

    /// Runs the plan, reports it, stops the servers it started and returns the exit status.
    func run() async -> ExitStatus {
        let initializer: DependencyInitializer<AppProcess>
        do {
            initializer = try AppPlan.makeInitializer(options: options)
        } catch {
            reporter.notice("the initialization plan is invalid: \(error)")
            return .initializationFailed
        }
        return await run(initializer)
    }

    /// Runs `initializer` (made by `AppPlan.makeInitializer(options:clock:)` from these options;
    /// a test's, on a clock it moves, whose events it watches too) as ``run()`` runs its own.
    func run(_ initializer: DependencyInitializer<AppProcess>) async -> ExitStatus {
        let events = initializer.events()
        let reporter = reporter
        // Steps cancelled by an interruption may fail with their own errors (a cancelled
        // request); the flag, set the moment the run is cancelled, keeps them reading as
        // interrupted.
        let interrupted = InterruptionFlag()
        let printing = Task {
            for await event in events { reporter.report(event, interrupted: interrupted.isSet) }
        }
        do {
            let result = try await withTaskCancellationHandler {
                try await initializer.run()
            } onCancel: {
                interrupted.set()
            }
            // The events end with the steps after ready: the run's whole report is ready too.
            await printing.value
            writeTrace(await result.waitForLaterSteps())
            let app = result.container
            reporter.report(app.firstFact)
            await app.shutdown()
            guard let problem = app.historyProblem else { return .success }
            reporter.reportDegraded(
                problem: problem, steps: result.report.failedOptionalSteps.map(\.id), environment: app.environment)
            return .degraded
        } catch let failure as InitializationFailure<AppProcess> {
            await printing.value
            writeTrace(failure.report)
            let plain = PlainFailure(failure, interrupted: interrupted.isSet)
            await failure.process.shutdown()
            reporter.report(plain)
            return plain.exitStatus
        } catch {
            // `run()` throws only `InitializationFailure`; report anything else all the same.
            await printing.value
            reporter.notice("initialization failed: \(error)")
            return .initializationFailed
        }
    }
}
