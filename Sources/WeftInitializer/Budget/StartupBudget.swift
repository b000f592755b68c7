import WeftPrimitives

/// How long start-up may take — to ready, in all, and per step — checked over several runs on
/// their median and 90th percentile, so that one slow run is noise and a step twice as slow is
/// not.
///
/// A budget lives in the repository as JSON, in whole milliseconds; every limit is optional:
/// ```json
/// {
///   "version": 1,
///   "ready": {"medianMs": 800, "p90Ms": 1500},
///   "total": {"medianMs": 2000},
///   "steps": {"fact": {"medianMs": 500, "p90Ms": 1000}}
/// }
/// ```
/// Decode it with any `Decoder` (Foundation's `JSONDecoder` reads the file), run start-up a few
/// times, and check the reports: ``check(_:)-([InitializationReport])`` says which limits held
/// and, for those that broke, by how much.
public struct StartupBudget: Sendable, Hashable, Codable {
    /// The longest a measure's median and 90th percentile may be; `nil` for no limit.
    public struct Limit: Sendable, Hashable, Codable {
        /// The limit on the median.
        public var median: Duration?
        /// The limit on the 90th percentile.
        public var p90: Duration?

        /// A limit on the median, the 90th percentile, or both.
        public init(median: Duration? = nil, p90: Duration? = nil) {
            self.median = median
            self.p90 = p90
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case median = "medianMs"
            case p90 = "p90Ms"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try StartupBudget.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
            median = try StartupBudget.milliseconds(container, .median)
            p90 = try StartupBudget.milliseconds(container, .p90)
            guard median != nil || p90 != nil else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "a limit needs \"medianMs\", \"p90Ms\" or both; remove the entry for no limit"
                    ))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(median.map(\.roundedMilliseconds), forKey: .median)
            try container.encodeIfPresent(p90.map(\.roundedMilliseconds), forKey: .p90)
        }
    }

    /// The limit on the time to ready (``InitializationReport/ready``).
    public var ready: Limit?
    /// The limit on the whole run (``InitializationReport/elapsed``, steps after ready included).
    public var total: Limit?
    /// The limits on steps, by step id: a step's time from the start of its first attempt to the
    /// end of its last (``InitializationStepTiming/duration``).
    public var steps: [String: Limit]

    /// The version of the file format this reads and writes.
    public static let formatVersion = 1

    /// A budget; leave out what you do not limit.
    public init(ready: Limit? = nil, total: Limit? = nil, steps: [String: Limit] = [:]) {
        self.ready = ready
        self.total = total
        self.steps = steps
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case version, ready, total, steps
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try Self.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription:
                    "this is a version \(version) budget; this version of WeftInitializer reads version "
                    + "\(Self.formatVersion): write \"version\": \(Self.formatVersion)")
        }
        ready = try container.decodeIfPresent(Limit.self, forKey: .ready)
        total = try container.decodeIfPresent(Limit.self, forKey: .total)
        steps = try container.decodeIfPresent([String: Limit].self, forKey: .steps) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encodeIfPresent(ready, forKey: .ready)
        try container.encodeIfPresent(total, forKey: .total)
        if !steps.isEmpty { try container.encode(steps, forKey: .steps) }
    }

    /// A key the format does not know is a typo, not a limit to ignore.
    fileprivate static func refuseUnknownKeys(in decoder: any Decoder, known: [String]) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where !known.contains(key.stringValue) {
            let suggestion = known.min { editDistance($0, key.stringValue) < editDistance($1, key.stringValue) }
            let hint = suggestion.map { ": did you mean \"\($0)\"?" } ?? ""
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [key],
                    debugDescription:
                        "unknown key \"\(key.stringValue)\"\(hint) (known: \(known.map { "\"\($0)\"" }.joined(separator: ", ")))"
                ))
        }
    }

    /// A whole, non-negative number of milliseconds, if present.
    fileprivate static func milliseconds<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws
        -> Duration?
    {
        guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value >= 0, value <= 1e12, value == value.rounded() else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription:
                    "\(value < 0 ? "\(value) is below zero" : "\(value) is not a whole number of milliseconds")"
                    + ": a limit is a whole number of milliseconds, 0 or more")
        }
        return .milliseconds(Int64(value))
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// What one run measured: the time to ready, the total, and each step that ran.
    public struct Run: Sendable, Hashable {
        /// The time to ready; `nil` for a run that never got ready.
        public var ready: Duration?
        /// The whole run's time.
        public var total: Duration
        /// Each step's time, by id; a step that was skipped, or never reached, is absent.
        public var steps: [String: Duration]

        /// A run's measures, given directly.
        public init(ready: Duration?, total: Duration, steps: [String: Duration]) {
            self.ready = ready
            self.total = total
            self.steps = steps
        }

        /// The measures of the run `report` describes: pass the whole run's report
        /// (``InitializationResult/waitForLaterSteps()``), steps after ready included.
        public init(_ report: InitializationReport) {
            ready = report.ready
            total = report.elapsed
            var steps: [String: Duration] = [:]
            for timing in report.steps where timing.outcome != .skipped { steps[timing.step.id] = timing.duration }
            self.steps = steps
        }
    }

    /// Checks the runs `reports` describe (whole runs: ``InitializationResult/waitForLaterSteps()``).
    public func check(_ reports: [InitializationReport]) -> StartupBudgetCheck {
        check(reports.map(Run.init))
    }

    /// Whether steps that run one after another — a start-up's critical chain, by step id —
    /// can end within the median limit on ready, each taking the median limit of its step (no
    /// time without one): a check of a plan before it runs. `nil` when they can, or when the
    /// budget has no median limit on ready.
    ///
    /// The breach's measure names the chain: `ready (chain: Database → Feed)`.
    public func check(chain: [String]) -> StartupBudgetCheck.Breach? {
        guard let limit = ready?.median else { return nil }
        let length = chain.reduce(Duration.zero) { $0 + (steps[$1]?.median ?? .zero) }
        guard length > limit else { return nil }
        return StartupBudgetCheck.Breach(
            measure: "ready (chain: \(chain.joined(separator: " → ")))",
            kind: .over(.median, value: length, limit: limit))
    }

    /// Checks `runs` against this budget: the median and 90th percentile (nearest rank) of each
    /// limited measure against its limit.
    ///
    /// A measure missing from a run — no ready for a run that failed, a step that was skipped or
    /// never reached — breaks the budget: the runs did not do what it measures. A step the
    /// budget names that no run has is a problem of the budget (a typo, or a step since renamed),
    /// reported with the closest id the runs have.
    public func check(_ runs: [Run]) -> StartupBudgetCheck {
        var measures: [StartupBudgetCheck.Measure] = []
        func measure(_ name: String, _ limit: Limit?, _ value: (Run) -> Duration?) {
            guard let limit else { return }
            let values = runs.compactMap(value)
            measures.append(
                StartupBudgetCheck.Measure(
                    name: name, limit: limit, runs: runs.count, missing: runs.count - values.count,
                    median: Self.nearestRank(0.5, of: values), p90: Self.nearestRank(0.9, of: values)))
        }
        measure("ready", ready, \.ready)
        measure("total", total) { $0.total }
        let known = Set(runs.flatMap(\.steps.keys))
        var unknown: [StartupBudgetCheck.Breach] = []
        for (id, limit) in steps.sorted(by: { $0.key < $1.key }) {
            guard known.contains(id) || runs.isEmpty else {
                let closest = known.min { (editDistance($0, id), $0) < (editDistance($1, id), $1) }
                unknown.append(StartupBudgetCheck.Breach(measure: "step \(id)", kind: .unknownStep(closest: closest)))
                continue
            }
            measure("step \(id)", limit) { $0.steps[id] }
        }
        return StartupBudgetCheck(runs: runs.count, measures: measures, unknownSteps: unknown)
    }

    /// The value at `fraction` of `values` by the nearest-rank method: the smallest value with
    /// at least that fraction of the values at or below it. `nil` for no values.
    static func nearestRank(_ fraction: Double, of values: [Duration]) -> Duration? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
