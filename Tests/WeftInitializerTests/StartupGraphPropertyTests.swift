import Foundation
import Testing
import WeftPrimitives
import WeftTestSupport

@testable import WeftInitializer

/// A random step: what it needs, how its attempts go.
private struct RandomStep {
    var after: [Int]
    var isAsync: Bool
    var isOptional: Bool
    var attempts: Int
    /// How many attempts fail, from the first: `attempts` of them means the step fails.
    var failing: Int
    /// Each attempt's duration in milliseconds (async steps; sync steps take no time).
    var durations: [Int]
    var baseDelay: Int
    /// Whether it runs after ready (``InitializationSchedule/afterReady``): then it may fail every
    /// attempt, as an optional step may.
    var isLater = false
    /// Whether it runs only when asked for (``OnDemand``): the test asks for every such step,
    /// all at once, when the run has ended.
    var isOnDemand = false

    func delay(before attempt: Int) -> Int { baseDelay << (attempt - 2) }
}

/// What the reference scheduler says about a step, in milliseconds from the run's start.
private struct Expected: Equatable {
    var outcome: InitializationStepTiming.Outcome
    var start: Int
    var end: Int
    var attempts: Int
    /// Intervals during which the step's task or its retry delay sleeps on the clock.
    var sleeps: [Range<Int>]
    /// The prerequisite it waited for: of those that finished last, the one named last (no
    /// earlier one can have waited for a later one); `nil` for a skipped step.
    var heldBy: Int?
    /// When each attempt started.
    var attemptStarts: [Int] = []
    /// For an on-demand step: whether it never ran because this prerequisite did not finish.
    var failedPrerequisite: Int?
    var isOnDemand = false
}

/// The moment the run is ready: the end of the last step needed for ready (0 with none), and
/// that step (of those that ran and ended then, the one given last); from the reference's steps.
private func readiness(_ steps: [RandomStep], _ expected: [Expected?]) -> (moment: Int, step: Int?) {
    let needed = steps.indices.filter { !steps[$0].isLater && !steps[$0].isOnDemand }.compactMap { index in
        expected[index].map { (index, $0.end) }
    }
    let moment = needed.map(\.1).max() ?? 0
    return (moment, needed.last { $0.1 == moment && expected[$0.0]?.outcome != .skipped }?.0)
}

/// The reference: the documented rules, step by step in index order (prerequisites always
/// have lower indices). A step starts the moment its last prerequisite finished; a failed or
/// skipped prerequisite skips it at the moment of that failure; attempt n + 1 starts the
/// delay after attempt n ended. Steps after ready come second: the run is ready when the last
/// step needed for ready ended, and a step after ready starts then at the earliest, held by
/// that step unless a prerequisite of its own ended later; its failure fails nothing.
///
/// On-demand steps come last, all asked for at the moment the run ended: one whose prerequisite
/// did not finish never runs (it fails when the last of its prerequisites ended, naming the
/// first in its list that did not finish); another starts when its last on-demand prerequisite
/// finished, held by the prerequisite named last of those that ended then, if one did.
private func reference(_ steps: [RandomStep]) -> [Expected] {
    var expected: [Expected?] = Array(repeating: nil, count: steps.count)
    for pass in [false, true] {
        let ready = pass ? readiness(steps, expected) : (moment: 0, step: nil)
        for (index, step) in steps.enumerated() where step.isLater == pass && !step.isOnDemand {
            expected[index] = expect(step, after: expected, ready: ready)
        }
    }
    let asked = expected.compactMap { $0?.end }.max() ?? 0
    for (index, step) in steps.enumerated() where step.isOnDemand {
        let prerequisites = step.after.map { expected[$0]! }
        // Every prerequisite is asked for (or looked up) at once; the step goes on when all ended.
        let settled = max(asked, prerequisites.filter(\.isOnDemand).map(\.end).max() ?? asked)
        if let broken = step.after.first(where: { expected[$0]!.outcome != .finished }) {
            expected[index] = Expected(
                outcome: .skipped, start: settled, end: settled, attempts: 0, sleeps: [], heldBy: nil,
                failedPrerequisite: broken, isOnDemand: true)
            continue
        }
        var own = expect(step, after: expected, ready: (moment: asked, step: nil))
        own.heldBy = step.after.last { expected[$0]!.end == own.start }
        own.isOnDemand = true
        expected[index] = own
    }
    return expected.map { $0! }
}

/// What the reference says of `step`, given its prerequisites' (in `expected`) and, for a step
/// after ready, the run's readiness.
private func expect(_ step: RandomStep, after expected: [Expected?], ready: (moment: Int, step: Int?)) -> Expected {
    do {
        let prerequisites = step.after.map { expected[$0]! }
        let broken = prerequisites.filter { $0.outcome != .finished }
        if let skippedAt = broken.map(\.end).min() {
            return Expected(outcome: .skipped, start: skippedAt, end: skippedAt, attempts: 0, sleeps: [], heldBy: nil)
        }
        let own = prerequisites.map(\.end).max() ?? 0
        let start = max(own, ready.moment)
        var heldBy = step.after.last { expected[$0]!.end == own }
        if let readyStep = ready.step, step.isLater, heldBy == nil || own < ready.moment { heldBy = readyStep }
        var time = start
        var sleeps: [Range<Int>] = []
        var attemptStarts: [Int] = []
        var attempt = 1
        while true {
            attemptStarts.append(time)
            let duration = step.isAsync ? step.durations[attempt - 1] : 0
            if duration > 0 { sleeps.append(time..<(time + duration)) }
            time += duration
            guard attempt <= step.failing, attempt < step.attempts else { break }
            attempt += 1
            let delay = step.delay(before: attempt)
            sleeps.append(time..<(time + delay))
            time += delay
        }
        let outcome: InitializationStepTiming.Outcome = attempt <= step.failing ? .failed : .finished
        return Expected(
            outcome: outcome, start: start, end: time, attempts: attempt, sleeps: sleeps, heldBy: heldBy,
            attemptStarts: attemptStarts)
    }
}

/// The reference for a run cancelled at `moment`, once everything due then has happened: a
/// step that ended by then is as it was; one that started and had not ended (running, or
/// waiting out a retry delay) reads cancelled at `moment`, with the attempts it started; one
/// that had not started is left out (`nil`).
private func reference(_ expected: [Expected], cancelledAt moment: Int) -> [Expected?] {
    expected.map { step in
        if step.isOnDemand { return nil }
        if step.end <= moment { return step }
        guard step.outcome != .skipped, step.start <= moment else { return nil }
        var cancelled = step
        cancelled.outcome = .cancelled
        cancelled.end = moment
        cancelled.attempts = step.attemptStarts.filter { $0 <= moment }.count
        return cancelled
    }
}

private func randomGraph(using generator: inout SplitMix64) -> [RandomStep] {
    let count = Int.random(in: 1...10, using: &generator)
    var steps: [RandomStep] = []
    for index in 0..<count {
        // An on-demand step runs its attempts in a task (never in place, as a sync step does),
        // waits only for steps needed for ready and on-demand ones, and no other step waits for it.
        let isOnDemand = index > 0 && Int.random(in: 0..<10, using: &generator) < 2
        let isAsync = isOnDemand || Bool.random(using: &generator) || Bool.random(using: &generator)
        let isOptional = !isOnDemand && Int.random(in: 0..<10, using: &generator) < 3
        let attempts = isAsync ? Int.random(in: 1...3, using: &generator) : 1
        let after = (0..<index).filter { earlier in
            Int.random(in: 0..<10, using: &generator) < 3
                && (isOnDemand ? !steps[earlier].isLater : !steps[earlier].isOnDemand)
        }
        if isOnDemand {
            steps.append(
                RandomStep(
                    after: after, isAsync: true, isOptional: false, attempts: attempts,
                    failing: Int.random(in: 0...attempts, using: &generator),
                    durations: (0..<attempts).map { _ in Int.random(in: 1...40, using: &generator) },
                    baseDelay: Int.random(in: 1...20, using: &generator), isOnDemand: true))
            continue
        }
        // A step after a step after ready runs after ready too.
        let isLater = Int.random(in: 0..<10, using: &generator) < 3 || after.contains { steps[$0].isLater }
        // A required step needed for ready always succeeds in the end; an optional one, or one
        // after ready, may fail every attempt.
        let failing = Int.random(in: 0...(isOptional || isLater ? attempts : attempts - 1), using: &generator)
        steps.append(
            RandomStep(
                after: after, isAsync: isAsync, isOptional: isOptional, attempts: attempts, failing: failing,
                durations: (0..<attempts).map { _ in Int.random(in: 1...40, using: &generator) },
                baseDelay: Int.random(in: 1...20, using: &generator), isLater: isLater))
    }
    return steps
}

/// Counts each step's attempts, from any task.
private final class AttemptCounter: Sendable {
    private let counts: Locked<[Int]>
    init(_ count: Int) { counts = Locked(Array(repeating: 0, count: count)) }
    func next(_ step: Int) -> Int {
        counts.withLock {
            $0[step] += 1
            return $0[step]
        }
    }
}

private func steps(
    for graph: [RandomStep], clock: ManualClock, counter: AttemptCounter, handles: [Int: OnDemand<Int>]
) -> [InitializationStep<TestProcess>] {
    graph.enumerated().map { index, step in
        let id = "s\(index)"
        let after = step.after.map { "s\($0)" }
        let retry = InitializationRetry.exponential(
            attempts: step.attempts, baseDelay: .milliseconds(step.baseDelay), maxDelay: .seconds(3_600), jitter: 0)
        // Each attempt sleeps its duration on the clock, then fails if it is one of the failing.
        let attempt: @Sendable () async throws -> Void = {
            let attempt = counter.next(index)
            try await clock.sleep(for: .milliseconds(step.durations[attempt - 1]))
            if attempt <= step.failing { throw TestError(message: "\(id) attempt \(attempt) failed") }
        }
        if let handle = handles[index] {
            return .onDemand(handle, after: after, retry: retry) { _ in
                try await attempt()
                return index
            }
        }
        guard step.isAsync else {
            let fails = step.failing > 0
            return .sync(
                id, after: after, optional: step.isOptional, schedule: step.isLater ? .afterReady : .beforeReady
            ) {
                _ in
                if fails { throw TestError(message: "\(id) failed") }
            }
        }
        return .async(
            id, after: after, optional: step.isOptional, schedule: step.isLater ? .afterReady : .beforeReady,
            retry: retry
        ) { _ in try await attempt() }
    }
}

@MainActor
@Suite("Start-up graph against a reference scheduler", .timeLimit(.minutes(2)))
struct StartupGraphPropertyTests {
    @Test("on random graphs the scheduler does exactly what the reference does, to the millisecond")
    func randomGraphs() async throws {
        let count = ProcessInfo.processInfo.environment["WEFT_GRAPH_SEQUENCES"].flatMap(Int.init) ?? 150
        var seeds = SplitMix64(state: 0x5EED_0033)
        for _ in 0..<count {
            let seed = seeds.next()
            var generator = SplitMix64(state: seed)
            let graph = randomGraph(using: &generator)
            let agrees = try await check(graph)
            #expect(agrees, "seed \(seed): \(graph.count) steps")
            if !agrees { break }
        }
    }

    @Test("cancelled at a random moment, a random graph reads as the reference says: what was going reads cancelled")
    func randomGraphsCancelled() async throws {
        let count = ProcessInfo.processInfo.environment["WEFT_GRAPH_SEQUENCES"].flatMap(Int.init) ?? 150
        var seeds = SplitMix64(state: 0xCA4C_E110)
        for _ in 0..<count {
            let seed = seeds.next()
            var generator = SplitMix64(state: seed)
            let graph = randomGraph(using: &generator)
            let expected = reference(graph).filter { !$0.isOnDemand }
            let end = expected.map(\.end).max() ?? 0
            // A moment at which the run is still going: some step has not ended.
            let moments = Set(expected.flatMap { [$0.start, $0.end] + $0.attemptStarts }).filter { $0 < end }
            guard let moment = moments.sorted().randomElement(using: &generator) else { continue }
            let agrees = try await check(graph, cancellingAt: moment)
            #expect(agrees, "seed \(seed): \(graph.count) steps, cancelled at \(moment) ms")
            if !agrees { break }
        }
    }

    /// Runs `graph` on a manual clock, moving time from one moment of the reference's to the
    /// next once the run has settled there, and compares what happened with the reference;
    /// with `cancelMoment`, cancels the run once it has settled at that moment.
    private func check(_ graph: [RandomStep], cancellingAt cancelMoment: Int? = nil) async throws -> Bool {
        let everything = reference(graph)
        // The run's own steps, without the on-demand ones (`nil` in their place).
        let runOnly = everything.map { $0.isOnDemand ? nil : $0 }
        let full = runOnly.compactMap { $0 }
        let clock = ManualClock()
        var handles: [Int: OnDemand<Int>] = [:]
        for index in graph.indices where graph[index].isOnDemand {
            let handle = OnDemand<Int>("s\(index)")
            handle.waitersChanged = { testChanges.notify() }
            handles[index] = handle
        }
        let initializer = try DependencyInitializer(
            createProcess: { TestProcess() },
            steps: steps(for: graph, clock: clock, counter: AttemptCounter(graph.count), handles: handles),
            clock: InitializationClock(clock))
        let ends = StepEnds(initializer.events())
        let run = Task { try await initializer.run() }

        let moments = Set(
            full.flatMap { [$0.start, $0.end] + $0.sleeps.flatMap { [$0.lowerBound, $0.upperBound] } })
        for moment in moments.sorted() where moment <= cancelMoment ?? .max {
            clock.advance(to: .milliseconds(moment))
            let sleeping = full.reduce(0) { $0 + $1.sleeps.filter { $0.contains(moment) }.count }
            let ended = full.filter { $0.end <= moment }.count
            let settled = await waitUntil { clock.sleeperCount == sleeping && ends.count == ended }
            guard settled else {
                Issue.record(
                    "at \(moment) ms: \(clock.sleeperCount) asleep, \(ends.count) ended; expected \(sleeping), \(ended)"
                )
                run.cancel()
                return false
            }
        }
        let ready = readiness(graph, runOnly)
        if let cancelMoment, cancelMoment < ready.moment || !graph.contains(where: \.isLater) {
            run.cancel()
            return try await checkCancelled(
                run, reference(everything, cancelledAt: cancelMoment), at: cancelMoment, clock)
        }
        let result = try await run.value
        if let cancelMoment {
            // Ready already: cancelling the run is cancelling its steps after ready.
            result.cancelLaterSteps()
            let report = await result.waitForLaterSteps()
            let agrees = compare(report, with: reference(everything, cancelledAt: cancelMoment).compactMap { $0 })
            #expect(report.ready == .milliseconds(ready.moment))
            let woken = await clock.waitForSleepers(0)
            #expect(woken)
            return agrees && woken && report.ready == .milliseconds(ready.moment)
        }
        #expect(result.report.ready == .milliseconds(ready.moment))
        let report = await result.waitForLaterSteps()
        #expect(report.ready == .milliseconds(ready.moment))

        var agrees = compare(report, with: full)
        for (timing, index) in zip(report.steps, graph.indices.filter { !graph[$0].isOnDemand }) {
            // No step starts before its prerequisites finished.
            for prerequisite in graph[index].after where timing.outcome != .skipped {
                let end = report.steps.first { $0.step.id == "s\(prerequisite)" }?.endOffset
                agrees = agrees && end.map { $0 <= timing.startOffset } == true
            }
        }
        #expect(report.steps.count == full.count)
        // The critical chain runs without gaps from the start to the end of the run.
        let chain = report.criticalChain
        let chainTime = chain.reduce(Duration.zero) { $0 + $1.duration }
        #expect(chainTime == report.elapsed && chain.first?.startOffset == .zero)
        #expect(report.elapsed == .milliseconds(full.map(\.end).max() ?? 0))
        guard !handles.isEmpty else { return agrees && chainTime == report.elapsed }
        let onDemand = try await checkOnDemand(graph, everything, handles, result, clock)
        return agrees && chainTime == report.elapsed && onDemand
    }

    /// Asks for every on-demand step at once, at the end of the run, moves the clock through
    /// the reference's moments for them, and compares what each request got and each step's
    /// timing with the reference.
    private func checkOnDemand(
        _ graph: [RandomStep], _ everything: [Expected], _ handles: [Int: OnDemand<Int>],
        _ result: InitializationResult<TestProcess>, _ clock: ManualClock
    ) async throws -> Bool {
        let onDemand = everything.indices.filter { everything[$0].isOnDemand }
        let requests = onDemand.map { index in
            Task { @MainActor () -> Result<Int, OnDemandStepError> in
                do throws(OnDemandStepError) {
                    return .success(try await handles[index]!.value())
                } catch {
                    return .failure(error)
                }
            }
        }
        // The on-demand steps that ask for each, directly.
        let dependents = Dictionary(
            grouping: onDemand.flatMap { index in graph[index].after.filter { graph[$0].isOnDemand }.map { ($0, index) }
            },
            by: \.0)
        let ran = onDemand.filter { everything[$0].failedPrerequisite == nil }
        let moments = Set(
            onDemand.flatMap { index in
                [everything[index].start, everything[index].end]
                    + everything[index].sleeps.flatMap { [$0.lowerBound, $0.upperBound] }
            })
        for moment in moments.sorted() {
            clock.advance(to: .milliseconds(moment))
            let sleeping = ran.reduce(0) { $0 + everything[$1].sleeps.filter { $0.contains(moment) }.count }
            let ended = ran.filter { everything[$0].end <= moment }.count
            // A step still going is asked for by the test and by each on-demand step that waits for it.
            let waiting = onDemand.map { index in
                everything[index].end > moment ? 1 + (dependents[index]?.count ?? 0) : 0
            }
            let settled = await waitUntil {
                clock.sleeperCount == sleeping && result.onDemandSteps.count == ended
                    && zip(onDemand, waiting).allSatisfy { handles[$0]!.waitingRequests == $1 }
            }
            guard settled else {
                let requested = onDemand.map { handles[$0]!.waitingRequests }
                let got = "\(clock.sleeperCount) asleep, \(result.onDemandSteps.count) ended, requests \(requested)"
                Issue.record(
                    Comment(rawValue: "on demand, at \(moment) ms: \(got); expected \(sleeping), \(ended), \(waiting)"))
                for request in requests { request.cancel() }
                result.cancelLaterSteps()
                return false
            }
        }
        var agrees = true
        for (index, request) in zip(onDemand, requests) {
            let want = everything[index]
            switch await request.value {
            case .success(let value):
                agrees = agrees && value == index && want.outcome == .finished
            case .failure(let error) where error.code == .failed:
                agrees = agrees && want.outcome == .failed && error.attempts == want.attempts
            case .failure(let error):
                agrees =
                    agrees && error.code == .prerequisiteFailed
                    && error.prerequisite == want.failedPrerequisite.map { "s\($0)" }
            }
            if !agrees {
                Issue.record("on-demand step s\(index): got \(await request.value), expected \(want)")
                return false
            }
        }
        let timings = result.onDemandSteps.sorted { $0.step.position < $1.step.position }
        let expected = ran.map { everything[$0] }
        guard timings.count == expected.count else {
            Issue.record("\(timings.count) on-demand steps ran, \(expected.count) expected")
            return false
        }
        for (timing, want) in zip(timings, expected) {
            let got = Expected(
                outcome: timing.outcome, start: Int(timing.startOffset.milliseconds),
                end: Int(timing.endOffset.milliseconds), attempts: timing.attempts, sleeps: want.sleeps,
                heldBy: timing.heldBy.flatMap { Int($0.dropFirst()) }, attemptStarts: want.attemptStarts,
                isOnDemand: true)
            if got != want {
                Issue.record("on-demand step \(timing.step.id): got \(got), expected \(want)")
                agrees = false
            }
        }
        return agrees
    }

    /// Whether `report`'s steps are those `expected` lists, in plan order.
    private func compare(_ report: InitializationReport, with expected: [Expected]) -> Bool {
        guard report.steps.count == expected.count else {
            Issue.record("\(report.steps.count) steps reported, \(expected.count) expected")
            return false
        }
        var agrees = true
        for (timing, want) in zip(report.steps, expected) {
            let got = Expected(
                outcome: timing.outcome, start: Int(timing.startOffset.milliseconds),
                end: Int(timing.endOffset.milliseconds), attempts: timing.attempts, sleeps: want.sleeps,
                heldBy: timing.outcome == .skipped ? nil : timing.heldBy.flatMap { Int($0.dropFirst()) },
                attemptStarts: want.attemptStarts)
            if got != want {
                Issue.record("step \(timing.step.id): got \(got), expected \(want)")
                agrees = false
            }
        }
        return agrees
    }

    /// Whether the run, cancelled at `moment`, failed as the reference says: every step that
    /// was going reads cancelled, none failed for it, and the failure names the first of them.
    private func checkCancelled(
        _ run: Task<InitializationResult<TestProcess>, any Error>, _ expected: [Expected?], at moment: Int,
        _ clock: ManualClock
    ) async throws -> Bool {
        let failure = try await #require(throws: InitializationFailure<TestProcess>.self) { try await run.value }
        let present = expected.compactMap { $0 }
        var agrees = compare(failure.report, with: present)
        let firstCancelled = expected.firstIndex { $0?.outcome == .cancelled }
        #expect(firstCancelled != nil)
        #expect(failure.isCancellation && failure.error is CancellationError)
        #expect(failure.failedStep.id == firstCancelled.map { "s\($0)" })
        #expect(failure.elapsed == .milliseconds(moment))
        agrees = agrees && failure.isCancellation && failure.failedStep.id == firstCancelled.map { "s\($0)" }
        // Every cancelled attempt and retry delay stops sleeping.
        let woken = await clock.waitForSleepers(0)
        #expect(woken)
        return agrees && woken
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
