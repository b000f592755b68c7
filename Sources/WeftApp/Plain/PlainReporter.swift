import FactKit
import WeftInitializer
import WeftPrimitives

/// Turns an initialization run into lines for a pipe or a log: no escape codes, ever.
///
/// In ``PlainFormat/text`` each step that ends prints one line, such as
/// `[pre-sync] ✓ Load settings (2 ms)`, then the fact prints as two lines; a failure prints
/// the step, the error and a hint on standard error (for a start-up that ran out of time, the
/// deadline and the step that held it up). In ``PlainFormat/json`` every event
/// prints one JSON object, such as
/// `{"event":"stepFinished","ms":2,"phase":"pre-sync","startMs":0,"step":"Load settings"}`,
/// and the run ends with a `fact` or a `failed` object; a `failed` object for a missed deadline
/// has a `deadline` object: its `ms`, and the `pending` steps, each with its `id`, `step`,
/// `phase`, `goingForMs` and `attempt`.
///
/// ```swift
/// let reporter = PlainReporter(format: .text) { line in print(line.text) }
/// for await event in initializer.events() { reporter.report(event) }
/// ```
struct PlainReporter: Sendable {
    /// The output format.
    let format: PlainFormat
    private let sink: @Sendable (PlainLine) -> Void

    /// Creates a reporter.
    /// - Parameters:
    ///   - format: Lines for a person, or JSON lines.
    ///   - sink: Receives every line, in order, with the stream it belongs on.
    init(format: PlainFormat, sink: @escaping @Sendable (PlainLine) -> Void) {
        self.format = format
        self.sink = sink
    }

    /// Reports an initialization event.
    ///
    /// The `failed` event prints nothing: report the failure with `report(_: PlainFailure)`,
    /// which knows the environment and so can give a hint.
    ///
    /// - Parameter interrupted: Whether the person stopped the run; a step that then fails
    ///   reads as interrupted, whatever error it ended with, and in text so does a step the
    ///   interruption cancelled.
    func report(_ event: InitializationEvent, interrupted: Bool = false) {
        var event = event
        if interrupted, case .stepFailed(let timing, _) = event {
            event = .stepFailed(timing, error: CancellationError())
        }
        switch format {
        case .text:
            if interrupted, case .stepCancelled(let timing) = event {
                sink(PlainLine(Self.interrupted(timing)))
            } else if let line = Self.text(for: event) {
                sink(PlainLine(line))
            }
        case .json:
            if let record = Self.record(for: event) { sink(PlainLine(record.jsonLine())) }
        }
    }

    /// Reports the fact a successful run fetched.
    func report(_ fact: Fact) {
        switch format {
        case .text:
            var line = "environment: \(fact.environment.plainText) · \(fact.latency.roundedMilliseconds) ms"
            if let timesSeen = fact.timesSeen, let factsStored = fact.factsStored {
                line += timesSeen == 1 ? " · seen 1 time" : " · seen \(timesSeen) times"
                line += factsStored == 1 ? " · 1 fact in history" : " · \(factsStored) facts in history"
            } else {
                line += " · not recorded"
            }
            sink(PlainLine("fact: \(fact.text.plainText)"))
            sink(PlainLine(line))
        case .json:
            var record = PlainRecord(event: "fact")
            record.text = fact.text
            record.environment = fact.environment
            record.latencyMs = fact.latency.roundedMilliseconds
            record.timesSeen = fact.timesSeen
            record.factsStored = fact.factsStored
            record.fetchedAt = fact.fetchedAt
            sink(PlainLine(record.jsonLine()))
        }
    }

    /// Reports that the run went on without its history: on standard error as text (after the
    /// fact), on standard output as JSON.
    func reportDegraded(problem: any Error, steps: [String], environment: Environment) {
        let cause = PlainFailure.rootCause(of: problem)
        let message = PlainFailure.message(for: cause)
        let hint = FailureAdvice.hint(for: cause, environment: environment).plainText
        switch format {
        case .text:
            sink(PlainLine("weft: history unavailable, the fact was not recorded: \(message)", on: .error))
            if !hint.isEmpty { sink(PlainLine("  hint:  \(hint)", on: .error)) }
        case .json:
            var record = PlainRecord(event: "degraded")
            record.error = message
            record.hint = hint.isEmpty ? nil : hint
            record.environment = environment.name
            record.failedSteps = steps
            sink(PlainLine(record.jsonLine()))
        }
    }

    /// Reports why a run failed: on standard error as text, on standard output as JSON.
    func report(_ failure: PlainFailure) {
        switch format {
        case .text:
            let place = failure.environment.map { " in environment \"\($0)\"" } ?? ""
            let milliseconds = failure.elapsed.roundedMilliseconds
            if failure.isCancellation {
                sink(
                    PlainLine(
                        "weft: interrupted\(place) during step \"\(failure.step)\" (\(failure.phase) phase) after \(milliseconds) ms; stopped cleanly",
                        on: .error))
                return
            }
            if let deadline = failure.deadline {
                sink(
                    PlainLine(
                        "weft: could not start\(place): the \(FailureAdvice.secondsText(deadline.deadline)) start-up deadline passed "
                            + (deadline.pending.isEmpty
                                ? "between steps"
                                : "while step \"\(failure.step)\" (\(failure.phase) phase) was still going")
                            + "; stopped after \(milliseconds) ms",
                        on: .error))
            } else {
                sink(
                    PlainLine(
                        "weft: could not start\(place): step \"\(failure.step)\" (\(failure.phase) phase) failed after \(milliseconds) ms",
                        on: .error))
            }
            sink(PlainLine("  error: \(failure.message)", on: .error))
            if !failure.hint.isEmpty { sink(PlainLine("  hint:  \(failure.hint)", on: .error)) }
        case .json:
            var record = PlainRecord(event: "failed")
            record.step = failure.step
            record.phase = failure.phase
            record.ms = failure.elapsed.roundedMilliseconds
            record.error = failure.message
            record.hint = failure.hint.isEmpty ? nil : failure.hint
            record.environment = failure.environment
            record.cancelled = failure.isCancellation
            record.deadline = failure.deadline
            sink(PlainLine(record.jsonLine()))
        }
    }

    /// Reports a notice for a person, such as why the full-screen app did not start.
    /// JSON output stays pure: notices go to standard error in both formats.
    func notice(_ text: String) {
        sink(PlainLine("weft: \(text.plainText)", on: .error))
    }

    // MARK: - Formatting

    static func text(for event: InitializationEvent) -> String? {
        switch event {
        case .stepFinished(let timing):
            "[\(timing.step.kindLabel)] ✓ \(timing.step.title) (\(timing.duration.roundedMilliseconds) ms)"
        case .stepFailed(let timing, let error) where PlainFailure.rootCause(of: error) is CancellationError:
            interrupted(timing)
        case .stepFailed(let timing, _):
            "[\(timing.step.kindLabel)] ✗ \(timing.step.title) (\(timing.duration.roundedMilliseconds) ms)"
        case .stepCancelled(let timing):
            "[\(timing.step.kindLabel)] - \(timing.step.title) (cancelled after \(timing.duration.roundedMilliseconds) ms)"
        case .stepRetrying(let step, let attempt, let delay, let error):
            "[\(step.kindLabel)] ↻ \(step.title) (attempt \(attempt)/\(step.retry.attempts) in "
                + "\(delay.roundedMilliseconds) ms: \(PlainFailure.message(for: PlainFailure.rootCause(of: error))))"
        case .stepSkipped(let timing):
            "[\(timing.step.kindLabel)] - \(timing.step.title) (skipped: \(timing.heldBy ?? "a prerequisite") failed)"
        case .started, .phaseStarted, .stepStarted, .phaseFinished, .ready, .finished, .failed:
            nil
        }
    }

    /// The line for a step the person's interruption stopped.
    private static func interrupted(_ timing: InitializationStepTiming) -> String {
        "[\(timing.step.kindLabel)] - \(timing.step.title) (interrupted after \(timing.duration.roundedMilliseconds) ms)"
    }

    static func record(for event: InitializationEvent) -> PlainRecord? {
        switch event {
        case .started(let steps):
            var record = PlainRecord(event: "started")
            record.steps = steps.map { PlainRecord.PlannedStep(step: $0.title, phase: $0.kindLabel) }
            return record
        case .phaseStarted(let phase):
            var record = PlainRecord(event: "phaseStarted")
            record.phase = phase.description
            return record
        case .stepStarted(let step):
            var record = PlainRecord(event: "stepStarted")
            record.step = step.title
            record.phase = step.kindLabel
            return record
        case .stepFinished(let timing):
            return record("stepFinished", timing)
        case .stepFailed(let timing, let error):
            var record = record("stepFailed", timing)
            record.error = PlainFailure.message(for: PlainFailure.rootCause(of: error))
            return record
        case .stepCancelled(let timing):
            return record("stepCancelled", timing)
        case .stepRetrying(let step, let attempt, let delay, let error):
            var record = PlainRecord(event: "stepRetrying")
            record.step = step.title
            record.phase = step.kindLabel
            record.attempt = attempt
            record.ms = delay.roundedMilliseconds
            record.error = PlainFailure.message(for: PlainFailure.rootCause(of: error))
            return record
        case .stepSkipped(let timing):
            return record("stepSkipped", timing)
        case .phaseFinished(let timing):
            var record = PlainRecord(event: "phaseFinished")
            record.phase = timing.phase.description
            record.startMs = timing.startOffset.roundedMilliseconds
            record.ms = timing.duration.roundedMilliseconds
            return record
        case .ready(let elapsed):
            var record = PlainRecord(event: "ready")
            record.ms = elapsed.roundedMilliseconds
            return record
        case .finished(let elapsed):
            var record = PlainRecord(event: "finished")
            record.ms = elapsed.roundedMilliseconds
            return record
        case .failed:
            return nil
        }
    }

    private static func record(_ event: String, _ timing: InitializationStepTiming) -> PlainRecord {
        var record = PlainRecord(event: event)
        record.step = timing.step.title
        record.phase = timing.step.kindLabel
        record.startMs = timing.startOffset.roundedMilliseconds
        record.ms = timing.duration.roundedMilliseconds
        return record
    }
}
