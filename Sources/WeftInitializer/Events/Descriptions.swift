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

extension InitializationStep: CustomStringConvertible {
    /// The step as declared: `'Fetch the fact' (fact): async, after env, 3 attempts, 200 ms
    /// doubling to 5000 ms, 10% jitter, timeout 2.0 s`: how it runs (sync, async or on
    /// demand), then only what differs from the defaults (no prerequisite, required, before
    /// ready, simple, no retry, no timeout).
    public var description: String {
        var parts = [node.isOnDemand ? "on demand" : node.isAsync ? "async" : "sync"]
        if !node.after.isEmpty { parts.append("after \(node.after.joined(separator: ", "))") }
        if node.isOptional { parts.append("optional") }
        if node.schedule == .afterReady, !node.isOnDemand { parts.append("after ready") }
        if node.type == .repeatable { parts.append("repeatable") }
        if node.retry.attempts > 1 { parts.append("\(node.retry)") }
        if let timeout = node.timeout { parts.append("timeout \(timeout.secondsText)") }
        return "'\(node.title)' (\(node.id)): \(parts.joined(separator: ", "))"
    }
}

extension DependencyInitializer: CustomStringConvertible {
    /// `initializer of 4 steps (3 before ready, 1 after) and 1 on demand`.
    public nonisolated var description: String {
        let later = plan.filter { $0.schedule == .afterReady }.count
        var text = "initializer of \(plan.count) step\(plan.count == 1 ? "" : "s")"
        if later > 0 { text += " (\(plan.count - later) before ready, \(later) after)" }
        let onDemand = graph.onDemand.count
        if onDemand > 0 { text += " and \(onDemand) on demand" }
        return text
    }
}

extension OnDemand: CustomStringConvertible {
    /// `on-demand step search`.
    public nonisolated var description: String { "on-demand step \(id)" }
}

extension StartupBudget.Limit: CustomStringConvertible {
    /// `median ≤ 0.3 s, p90 ≤ 0.5 s`, or `no limit`.
    public var description: String {
        let limits = [median.map { "median ≤ \($0.secondsText)" }, p90.map { "p90 ≤ \($0.secondsText)" }]
            .compactMap { $0 }
        return limits.isEmpty ? "no limit" : limits.joined(separator: ", ")
    }
}

extension StartupBudget: CustomStringConvertible {
    /// A line per limit: `ready: median ≤ 0.3 s`, `total: …`, then `step fact: p90 ≤ 0.12 s`,
    /// steps by id; `no limits` for an empty budget.
    public var description: String {
        var lines: [String] = []
        if let ready { lines.append("ready: \(ready)") }
        if let total { lines.append("total: \(total)") }
        for (id, limit) in steps.sorted(by: { $0.key < $1.key }) { lines.append("step \(id): \(limit)") }
        return lines.isEmpty ? "no limits" : lines.joined(separator: "\n")
    }
}
