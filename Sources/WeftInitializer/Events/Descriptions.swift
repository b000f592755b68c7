import WeftPrimitives

// Readable descriptions for the public values a message or a log line may interpolate: a
// pending step, an event, a timing reads as the user wrote the step, never as its fields.

extension InitializationStepInfo: CustomStringConvertible {
    /// The step as messages name it: `'Fetch the first cat fact' (fact, graph)`.
    public var description: String { "'\(title)' (\(id), \(phase))" }
}

extension InitializationStepType: CustomStringConvertible {
    /// `simple` or `repeatable`.
    public var description: String {
        switch self {
        case .simple: "simple"
        case .repeatable: "repeatable"
        }
    }
}

extension InitializationStepTiming: CustomStringConvertible {
    /// `'Fetch the first cat fact' (fact, graph) finished at 0.26 s, after 0.25 s (2 attempts)`:
    /// when it ended, from the run's start, and how long it took.
    public var description: String {
        let attempts = attempts > 1 ? " (\(attempts) attempts)" : ""
        return "\(step) \(outcome) at \(endOffset.secondsText), after \(duration.secondsText)\(attempts)"
    }
}

extension InitializationPhaseTiming: CustomStringConvertible {
    /// `async phase at 0.01 s for 0.25 s`.
    public var description: String {
        "\(phase) phase at \(startOffset.secondsText) for \(duration.secondsText)"
    }
}

extension InitializationEvent: CustomStringConvertible {
    /// The event in a line: `step 'Fetch the first cat fact' (fact, graph) retrying: attempt 2
    /// after 0.2 s (offline)`.
    public var description: String {
        switch self {
        case .started(let steps): "started: \(steps.count) step\(steps.count == 1 ? "" : "s")"
        case .phaseStarted(let phase): "\(phase) phase started"
        case .stepStarted(let step): "step \(step) started"
        case .stepRetrying(let step, let attempt, let delay, let error):
            "step \(step) retrying: attempt \(attempt) after \(delay.secondsText) (\(error))"
        case .stepFinished(let timing), .stepCancelled(let timing), .stepSkipped(let timing):
            "step \(timing)"
        case .stepFailed(let timing, let error): "step \(timing): \(error)"
        case .phaseFinished(let timing): "\(timing) finished"
        case .ready(let elapsed): "ready after \(elapsed.secondsText)"
        case .finished(let elapsed): "finished after \(elapsed.secondsText)"
        case .failed(let step, let error, let elapsed):
            "failed after \(elapsed.secondsText) in step \(step): \(error)"
        }
    }
}

extension InitializationReport: CustomStringConvertible {
    /// The run as a person reads it: a headline, then a line per step in plan order.
    ///
    /// ```
    /// 3 steps, ready at 0.26 s, done at 0.4 s
    ///   'Open the history' (history, graph) finished at 0.01 s, after 0.01 s
    ///   'Fetch the first cat fact' (fact, graph) finished at 0.26 s, after 0.25 s (2 attempts)
    ///   'Check the server's health' (health, graph) finished at 0.4 s, after 0.14 s
    /// ```
    public var description: String {
        ([headline] + steps.map { "  \($0)" }).joined(separator: "\n")
    }

    /// `3 steps, ready at 0.26 s, done at 0.4 s` (done only with steps after ready), `…, degraded`,
    /// or how it fell short of ready.
    private var headline: String {
        var parts = ["\(steps.count) step\(steps.count == 1 ? "" : "s")"]
        switch ready {
        case let ready? where stepsAfterReady.isEmpty: parts.append("ready at \(ready.secondsText)")
        case let ready?: parts.append("ready at \(ready.secondsText), done at \(elapsed.secondsText)")
        case nil: parts.append("ended at \(elapsed.secondsText) before it was ready")
        }
        if let missedDeadline { parts.append("the \(missedDeadline.secondsText) deadline passed") }
        if isDegraded { parts.append("degraded") }
        return parts.joined(separator: ", ")
    }
}

extension InitializationResult: CustomStringConvertible {
    /// The run's ``report`` as it reads at ready: ``waitForLaterSteps()`` gives the whole run's.
    public nonisolated var description: String { report.description }
}
