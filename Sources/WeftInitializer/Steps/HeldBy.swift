/// Which prerequisite held a step up: the one rule of ``InitializationStepTiming/heldBy``,
/// for graph steps (``GraphRun``) and on-demand steps (``OnDemand``) alike.
enum HeldBy {
    /// Of `prerequisites`, in the order named, the one that ended last; of several that ended at
    /// the same moment, the one named last, unless another of them waited for it (it then ended
    /// before that one, though the clock did not tell them apart). `end` gives when each step
    /// ended, `nil` for one that does not count (it ended before the step was asked for);
    /// `after` gives each step's own prerequisites.
    static func latest<Step: Hashable>(
        of prerequisites: some Sequence<Step>, end: (Step) -> Duration?, after: (Step) -> [Step]
    ) -> Step? {
        var latest: (step: Step, end: Duration)?
        for prerequisite in prerequisites {
            guard let ended = end(prerequisite) else { continue }
            if let held = latest {
                guard
                    ended > held.end
                        || (ended == held.end && !waits(held.step, for: prerequisite, end: end, after: after))
                else { continue }
            }
            latest = (prerequisite, ended)
        }
        return latest?.step
    }

    /// Whether `step` waited, directly or not, for `other`, a step that ended at the same moment
    /// (so every step between them did too). Asked only when two ends tie.
    private static func waits<Step: Hashable>(
        _ step: Step, for other: Step, end: (Step) -> Duration?, after: (Step) -> [Step]
    ) -> Bool {
        let moment = end(step)
        var stack = [step]
        var seen: Set<Step> = [step]
        while let next = stack.popLast() {
            for prerequisite in after(next) where end(prerequisite) == moment {
                if prerequisite == other { return true }
                if seen.insert(prerequisite).inserted { stack.append(prerequisite) }
            }
        }
        return false
    }
}
