import WeftPrimitives

/// How runs measured up to a ``StartupBudget``: each limited measure, and every way the runs
/// broke the budget (``breaches``). Its `description` is a table for a CI log.
public struct StartupBudgetCheck: Sendable, Hashable, CustomStringConvertible {
    /// Which statistic of a measure broke its limit.
    public enum Statistic: String, Sendable, Hashable {
        case median, p90
    }

    /// One measure over the runs: `ready`, `total` or `step ID`.
    public struct Measure: Sendable, Hashable {
        /// `ready`, `total`, or `step` and the step's id.
        public let name: String
        /// Its limit in the budget.
        public let limit: StartupBudget.Limit
        /// How many runs there were.
        public let runs: Int
        /// In how many runs the measure is missing: the run never got ready, or the step did not run.
        public let missing: Int
        /// The median of the runs that have it; `nil` when none has.
        public let median: Duration?
        /// The 90th percentile (nearest rank) of the runs that have it.
        public let p90: Duration?

        /// The limits this measure broke.
        public var breaches: [Breach] {
            var breaches: [Breach] = []
            if missing > 0 { breaches.append(Breach(measure: name, kind: .missing(missing, of: runs))) }
            for (statistic, value, limit) in [(Statistic.median, median, limit.median), (.p90, p90, limit.p90)] {
                guard let value, let limit, value > limit else { continue }
                breaches.append(Breach(measure: name, kind: .over(statistic, value: value, limit: limit)))
            }
            return breaches
        }
    }

    /// A way the runs broke the budget: a limit a measure broke, a measure missing from runs, a
    /// step the budget names that no run has, or no run at all.
    public struct Breach: Sendable, Hashable, CustomStringConvertible {
        /// How.
        public enum Kind: Sendable, Hashable {
            /// The statistic was `value`, above `limit`.
            case over(Statistic, value: Duration, limit: Duration)
            /// The measure is missing from this many of the runs.
            case missing(Int, of: Int)
            /// The budget limits a step no run has (a typo, or a step since renamed); `closest`
            /// is the id the runs have nearest to it, if they have any.
            case unknownStep(closest: String?)
            /// There was no run to check.
            case noRuns
        }

        /// The measure: `ready`, `total` or `step ID`; `runs` for ``Kind/noRuns``.
        public let measure: String
        public let kind: Kind

        /// How many times its limit the value is (3.1 for 3.1×); `nil` but for a measure over a
        /// limit above zero.
        public var factor: Double? {
            guard case .over(_, let value, let limit) = kind, limit > .zero else { return nil }
            return value.secondsValue / limit.secondsValue
        }

        /// What broke, by how much, and what to do.
        public var description: String {
            switch kind {
            case .over(let statistic, let value, let limit):
                let times = factor.map { " (\(StartupBudgetCheck.factorText($0)) its limit)" } ?? ""
                return "\(measure): the \(statistic == .median ? "median" : "90th percentile") is "
                    + "\(StartupBudgetCheck.text(value)), over its limit of \(StartupBudgetCheck.text(limit))\(times). "
                    + "Make it faster, or, if the new time is intended, raise the limit in the budget file."
            case .missing(let count, let runs):
                return "\(measure): missing from \(count) of \(runs) runs (the run failed, or the step did not run). "
                    + "Fix what stopped it, or remove the limit if the step is gone."
            case .unknownStep(let closest):
                return "\(measure): the budget limits it, but no run has it"
                    + (closest.map { ": did you mean \"\($0)\"?" } ?? ".")
                    + " Fix the id in the budget file, or remove it."
            case .noRuns:
                return "no run to check. Run the start-up at least once before checking it."
            }
        }
    }

    /// How many runs were checked.
    public let runs: Int
    /// Each limited measure, in the budget's order: ready, total, then steps by id.
    public let measures: [Measure]
    /// The steps the budget names that no run has, as breaches.
    private let unknownSteps: [Breach]

    init(runs: Int, measures: [Measure], unknownSteps: [Breach]) {
        self.runs = runs
        self.measures = measures
        self.unknownSteps = unknownSteps
    }

    /// Every way the runs broke the budget: each limit a measure broke, each measure missing
    /// from runs, each step the budget names that no run has, or that there was no run. Empty
    /// exactly when the runs are within budget: a CI gate fails on any.
    public var breaches: [Breach] {
        (runs == 0 ? [Breach(measure: "runs", kind: .noRuns)] : []) + measures.flatMap(\.breaches) + unknownSteps
    }

    /// Whether the runs are within budget: ``breaches`` is empty.
    public var isWithinBudget: Bool { breaches.isEmpty }

    /// A table a CI log shows: a line per measure (median, 90th percentile, limits, ✓ or ✗),
    /// then what broke and what to do.
    public var description: String {
        var lines = ["start-up budget over \(runs) run\(runs == 1 ? "" : "s"): median, 90th percentile (limits)"]
        let width = measures.map(\.name.count).max() ?? 0
        for measure in measures {
            let name = measure.name.padding(toLength: width)
            let median = measure.median.map(Self.text) ?? "—"
            let p90 = measure.p90.map(Self.text) ?? "—"
            let limits = [
                measure.limit.median.map { "median ≤ \(Self.text($0))" },
                measure.limit.p90.map { "p90 ≤ \(Self.text($0))" },
            ]
            .compactMap { $0 }.joined(separator: ", ")
            lines.append("  \(measure.breaches.isEmpty ? "✓" : "✗") \(name)  \(median), \(p90)  (\(limits))")
        }
        let breaches = breaches
        if breaches.isEmpty {
            lines.append("within budget")
        } else {
            lines.append("over budget:")
            lines += breaches.map { "  - \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// `84 ms` under a second, `1.25 s` from one.
    static func text(_ duration: Duration) -> String {
        let milliseconds = duration.roundedMilliseconds
        return milliseconds < 1_000 ? "\(milliseconds) ms" : duration.secondsText
    }

    /// `3.1×`.
    static func factorText(_ factor: Double) -> String {
        let tenths = Int((factor * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)×"
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
