/// What a run's report is made of: the steps that ended, in the order they did, and when the
/// run got ready. The observer a run always has, and reads back.
@MainActor
final class RunLog: RunObserver {
    /// The run's steps, by position.
    private let plan: [InitializationStepInfo]

    /// Every ended step, in the order the steps ended, and where each is among them: one stored
    /// property, changed by one call per step (each access to a class's stored property is
    /// checked for exclusivity when it runs).
    private var log: Ends

    private struct Ends {
        /// Every ended step, in the order the steps ended.
        var ended: [StepEnd] = []
        /// Where each step is in `ended`, by position; -1 until it ends.
        var slots: [Int]

        mutating func append(_ step: StepEnd) {
            slots[step.position] = ended.count
            ended.append(step)
        }
    }

    /// When the run got ready; `nil` until it does.
    private(set) var readyOffset: Duration?

    init(plan: [InitializationStepInfo]) {
        self.plan = plan
        var log = Ends(slots: Array(repeating: -1, count: plan.count))
        log.ended.reserveCapacity(plan.count)
        self.log = log
    }

    func stepEnded(_ end: StepEnd) { log.append(end) }

    func ready(at offset: Duration) { readyOffset = offset }

    /// Every ended step's timing, in the order the steps ended.
    var stepTimings: [InitializationStepTiming] { log.ended.map { $0.timing(in: plan) } }

    /// Every ended step's timing, in plan order.
    var timingsInPlanOrder: [InitializationStepTiming] {
        var ordered: [InitializationStepTiming] = []
        let log = log
        ordered.reserveCapacity(log.ended.count)
        for slot in log.slots where slot >= 0 { ordered.append(log.ended[slot].timing(in: plan)) }
        return ordered
    }
}
