import WeftPrimitives

/// Where a run's time went: every step's timing in plan order, the critical chain, the blame
/// list, and the steps an optional failure left out.
///
/// ```swift
/// let result = try await initializer.run()
/// for timing in result.report.criticalChain {
///     print(timing.step.title, timing.startOffset, timing.duration)
/// }
/// try result.report.traceEventJSON().write(to: traceURL, atomically: true, encoding: .utf8)
/// ```
public struct InitializationReport: Sendable {
    /// Every step that started or was skipped, in plan order. Steps a failed run never
    /// reached are left out.
    public let steps: [InitializationStepTiming]
    /// The time from the start of the run to its end: with steps after ready, to the end of
    /// the last of them (in the report `run()` returns, which is made at ready, to ready).
    public let elapsed: Duration
    /// The time from the start of the run to ready: when every step needed for ready had ended
    /// (``InitializationSchedule``). The same as ``elapsed`` for a run without steps after ready;
    /// `nil` for a run that failed, or was cancelled, before it was ready.
    public let ready: Duration?
    /// The run's deadline, when the run failed because it passed
    /// (``InitializationDeadlineExceeded``); `nil` otherwise.
    public let missedDeadline: Duration?

    init(
        planOrdered timings: [InitializationStepTiming], elapsed: Duration, ready: Duration?,
        missedDeadline: Duration? = nil
    ) {
        self.steps = timings
        self.elapsed = elapsed
        self.ready = ready
        self.missedDeadline = missedDeadline
    }

    /// The steps that ran after ready (``InitializationSchedule/afterReady``), in plan order.
    public var stepsAfterReady: [InitializationStepTiming] { steps.filter { $0.step.schedule == .afterReady } }

    /// The steps that decided the total time, first to last: the step that ended last, the
    /// prerequisite that held it (the one that finished last), that step's, and so on.
    ///
    /// Making any other step faster does not make the run faster; on the chain, the gaps
    /// between one step's end and the next one's start are the initializer's own overhead.
    ///
    /// When several steps ended at the same last moment, the chain ends at one that none of
    /// the others waited for (a step that ended the moment its prerequisite did ended after
    /// it), the last such in plan order.
    public var criticalChain: [InitializationStepTiming] {
        let started = steps.filter { $0.outcome != .skipped }
        guard let end = started.lazy.map(\.endOffset).max() else { return [] }
        let last = started.filter { $0.endOffset == end }
        let waitedFor = Set(last.flatMap(\.step.after))
        guard var step = last.last(where: { !waitedFor.contains($0.step.id) }) ?? last.last else { return [] }
        let byID = Dictionary(started.map { ($0.step.id, $0) }, uniquingKeysWith: { first, _ in first })
        var chain = [step]
        while let held = step.heldBy, let previous = byID[held], chain.count <= steps.count {
            chain.append(previous)
            step = previous
        }
        return chain.reversed()
    }

    /// The steps that ran, longest first, as `systemd-analyze blame` lists units.
    public var blame: [InitializationStepTiming] {
        steps.filter { $0.outcome != .skipped }
            .sorted { ($0.duration, $1.step.position) > ($1.duration, $0.step.position) }
    }

    /// The optional steps that failed.
    public var failedOptionalSteps: [InitializationStepInfo] {
        steps.filter { $0.outcome == .failed && $0.step.isOptional }.map(\.step)
    }

    /// The steps that did not run because an optional step they need failed.
    public var skippedSteps: [InitializationStepInfo] {
        steps.filter { $0.outcome == .skipped }.map(\.step)
    }

    /// The steps that were still running, or waiting out a retry delay, when the run ended
    /// early: a required step failed, or the run was cancelled. They were cancelled and
    /// abandoned; their outcome is ``InitializationStepTiming/Outcome/cancelled``.
    public var cancelledSteps: [InitializationStepInfo] {
        steps.filter { $0.outcome == .cancelled }.map(\.step)
    }

    /// Whether an optional step, or a step after ready, failed, so that the run went on without
    /// it and what needs it.
    public var isDegraded: Bool {
        steps.contains { $0.outcome == .failed && ($0.step.isOptional || $0.step.schedule == .afterReady) }
    }

    /// The run in the Chrome trace-event format, which Perfetto (ui.perfetto.dev) and
    /// `chrome://tracing` open: one complete event (`"ph": "X"`) per attempt, its `ts` and `dur`
    /// in microseconds, and in `args` the step's id, its prerequisites (`after`), the outcome,
    /// the attempt and whether the step is on the critical chain.
    ///
    /// Attempts that overlap go on separate rows (`tid`), so every row nests correctly. A run
    /// that missed its deadline has an instant event, `deadline passed`, where it passed.
    public func traceEventJSON() -> String {
        let critical = Set(criticalChain.map(\.step.id))
        var events: [(start: Duration, json: String)] = []
        var rowEnds: [Duration] = []
        let attempts = steps.flatMap { timing in
            timing.attemptTimings.enumerated().map { (timing: timing, number: $0.offset + 1, attempt: $0.element) }
        }
        .sorted {
            ($0.attempt.startOffset, $0.timing.step.position) < ($1.attempt.startOffset, $1.timing.step.position)
        }
        for (timing, number, attempt) in attempts {
            let end = attempt.startOffset + attempt.duration
            let row: Int
            if let free = rowEnds.firstIndex(where: { $0 <= attempt.startOffset }) {
                row = free
                rowEnds[free] = end
            } else {
                row = rowEnds.count
                rowEnds.append(end)
            }
            let step = timing.step
            let after = step.after.map(JSONString.literal).joined(separator: ",")
            let args =
                "{\"id\":\(JSONString.literal(step.id)),\"after\":[\(after)],\"outcome\":\"\(attempt.outcome)\","
                + "\"stepOutcome\":\"\(timing.outcome)\",\"attempt\":\(number),\"attempts\":\(timing.attempts),"
                + "\"optional\":\(step.isOptional),\"critical\":\(critical.contains(step.id))}"
            let json =
                "{\"name\":\(JSONString.literal(step.title)),\"cat\":\"\(step.isAsync ? "async" : "sync")\","
                + "\"ph\":\"X\",\"ts\":\(JSONText.microseconds(attempt.startOffset)),"
                + "\"dur\":\(JSONText.microseconds(attempt.duration)),\"pid\":1,\"tid\":\(row + 1),\"args\":\(args)}"
            events.append((attempt.startOffset, json))
        }
        var lines = ["{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"start-up\"}}"]
        for row in rowEnds.indices {
            lines.append(
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(row + 1),\"args\":{\"name\":\"lane \(row + 1)\"}}"
            )
        }
        lines += events.map(\.json)
        if let ready, steps.contains(where: { $0.step.schedule == .afterReady }) {
            // An instant event across the whole trace, where the run got ready.
            lines.append(
                "{\"name\":\"ready\",\"ph\":\"i\",\"s\":\"g\",\"ts\":\(JSONText.microseconds(ready)),"
                    + "\"pid\":1,\"tid\":0}")
        }
        if let missedDeadline {
            // An instant event across the whole trace, where the deadline passed.
            lines.append(
                "{\"name\":\"deadline passed\",\"ph\":\"i\",\"s\":\"g\",\"ts\":\(JSONText.microseconds(missedDeadline)),"
                    + "\"pid\":1,\"tid\":0}")
        }
        return "{\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n],\"displayTimeUnit\":\"ms\"}\n"
    }
}

/// The bits of JSON the trace needs beyond `JSONString`, without Foundation.
enum JSONText {
    /// Whole microseconds, rounded down, never negative.
    static func microseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}
