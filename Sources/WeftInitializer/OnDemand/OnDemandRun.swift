import CoreMetrics
import Instrumentation
import Tracing
import WeftPrimitives

/// The on-demand steps of one run that reached ready: what their prerequisites did, how to
/// demand each of them, their timings, and the runs of them still going.
@MainActor
final class OnDemandRun {
    let clock: InitializationClock
    /// The run's start on ``clock``: timings are offsets from it, as the run's own are.
    let origin: Duration
    /// How the run's other steps ended, by id (those that ended by ready).
    var outcomes: [String: InitializationStepTiming.Outcome] = [:]
    /// When each step that finished did, by id: the run's, then the on-demand ones as they finish.
    var ends: [String: Duration] = [:]
    /// The ids of the run's other steps: a step of the initializer that is not among them did not
    /// run again in this repeat, because it finished in an earlier run.
    private let planned: Set<String>
    /// Each step's prerequisites, by id: the run's steps' and the on-demand ones'.
    private let prerequisites: [String: [String]]
    /// How to ask for each on-demand step of the run, by id, and how to cancel its run.
    private var demands: [String: @MainActor () async throws(OnDemandStepError) -> Void] = [:]
    private var cancels: [@MainActor () -> Void] = []
    /// The on-demand steps that ended, in the order they did.
    private(set) var timings: [InitializationStepTiming] = []

    /// Where the run's metrics went: an on-demand step's go there too, whoever asked for it.
    private let metrics: any MetricsFactory

    /// The run's tracing: an on-demand step's span links to the run's.
    let tracing: RunTracing

    init(
        clock: InitializationClock, origin: Duration, steps: [InitializationStepInfo],
        onDemand: [InitializationStepInfo], tracing: RunTracing
    ) {
        metrics = MetricsSystem.factory
        self.tracing = tracing
        self.clock = clock
        self.origin = origin
        self.planned = Set(steps.map(\.id))
        self.prerequisites = Dictionary((steps + onDemand).map { ($0.id, $0.after) }, uniquingKeysWith: { $1 })
    }

    var now: Duration { clock.now() - origin }

    func register(
        _ id: String, demand: @escaping @MainActor () async throws(OnDemandStepError) -> Void,
        cancel: @escaping @MainActor () -> Void
    ) {
        demands[id] = demand
        cancels.append(cancel)
    }

    /// Waits until the prerequisite `id` of `step` has finished: an on-demand one is demanded,
    /// another step must have finished by ready.
    func demand(_ id: String, for step: InitializationStepInfo) async throws(OnDemandStepError) {
        // A step cancelled before it asked starts nothing.
        guard !Task.isCancelled else { throw OnDemandStepError(.cancelled, step: step) }
        if let demand = demands[id] {
            do throws(OnDemandStepError) {
                try await demand()
            } catch {
                if error.code == .cancelled { throw OnDemandStepError(.cancelled, step: step) }
                throw OnDemandStepError(.prerequisiteFailed, step: step, underlyingError: error, prerequisite: id)
            }
            return
        }
        guard outcomes[id] == .finished || !planned.contains(id) else {
            let outcome = outcomes[id].map { "it \($0)" }
            throw OnDemandStepError(
                .prerequisiteFailed, step: step, underlyingError: outcome.map(PrerequisiteOutcome.init),
                prerequisite: id)
        }
    }

    /// ``demand(_:for:)``'s error, or `nil` once the prerequisite finished.
    func failure(of id: String, for step: InitializationStepInfo) async -> OnDemandStepError? {
        do throws(OnDemandStepError) {
            try await demand(id, for: step)
            return nil
        } catch {
            return error
        }
    }

    /// Whether the run failed after all (its container could not be built): its steps never run.
    private(set) var isClosed = false

    /// Cancels every on-demand step still running: their requests end at once, reading
    /// cancelled, and the next request runs the step afresh.
    func cancel() {
        for cancel in cancels { cancel() }
    }

    /// The run failed after it was ready: cancels the steps running, and no request runs one again.
    func close() {
        isClosed = true
        cancel()
    }

    /// The prerequisite that held `step` up (``HeldBy``), of those that finished since it was
    /// asked for at `asked`; `nil` if it could start at once.
    func heldBy(_ step: InitializationStepInfo, askedAt asked: Duration) -> String? {
        HeldBy.latest(
            of: step.after, end: { id in ends[id].flatMap { $0 >= asked ? $0 : nil } },
            after: { prerequisites[$0] ?? [] })
    }

    func record(
        _ step: InitializationStepInfo, _ outcome: InitializationStepTiming.Outcome, from start: Duration,
        to end: Duration, attempts: [InitializationStepTiming.Attempt], heldBy: String?, span: (any Span)? = nil,
        error: (any Error)? = nil
    ) {
        if let span {
            span.attributes["weft.step.outcome"] = outcome.description
            if attempts.count > 1 { span.attributes["weft.step.attempts"] = attempts.count }
            if let error {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: "\(error)"))
            }
            span.end()
        }
        if outcome == .finished { ends[step.id] = end }
        let timing = InitializationStepTiming(
            step: step, startOffset: start, duration: end - start, outcome: outcome, heldBy: heldBy,
            attempts: attempts.isEmpty ? nil : attempts)
        timings.append(timing)
        RunMetrics.record(timing, into: metrics)
    }

    /// A step's description for a handle that no run has bound.
    nonisolated static func unboundStep(_ id: String) -> InitializationStepInfo {
        InitializationStepInfo(
            id: id, title: id, phase: .graph, index: 0, position: -1, type: .simple, isAsync: true,
            schedule: .afterReady,
            isOnDemand: true)
    }

    /// One attempt of a step: with a timeout, the attempt runs in a task of its own and is
    /// abandoned (cancelled, not waited for) when the timeout passes first.
    nonisolated static func attempt<Value: Sendable>(
        _ produce: @escaping @Sendable () async throws -> Value,
        step: InitializationStepInfo,
        attempt: Int,
        timeout: Duration?,
        priority: TaskPriority?,
        clock: InitializationClock,
        deadline: Duration?
    ) async -> Result<Value, any Error> {
        guard let timeout, let deadline else {
            do {
                return .success(try await produce())
            } catch {
                return .failure(error)
            }
        }
        let race = Race<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.begin(continuation)
                let work = Task(priority: priority) {
                    do {
                        race.end(.success(try await produce()))
                    } catch {
                        race.end(.failure(error))
                    }
                }
                let timeoutError = InitializationStepTimeoutError(stepTitle: step.title, timeout: timeout)
                let timer = clock.timer(until: deadline, for: .stepTimeout(step: step, attempt: attempt)) {
                    race.end(.failure(timeoutError))
                }
                race.keep([work, timer])
            }
        } onCancel: {
            race.end(.failure(CancellationError()))
        }
    }
}

/// An attempt racing its timeout (and its caller's cancellation): the first to end gives the
/// result, and the tasks still going are cancelled.
private final class Race<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Value, any Error>, Never>?
        var result: Result<Value, any Error>?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<Result<Value, any Error>, Never>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func keep(_ tasks: [Task<Void, Never>]) {
        let ended = state.withLock { state -> Bool in
            state.tasks = tasks
            return state.result != nil
        }
        if ended { for task in tasks { task.cancel() } }
    }

    func end(_ result: Result<Value, any Error>) {
        let (continuation, tasks) = state.withLock {
            state -> (CheckedContinuation<Result<Value, any Error>, Never>?, [Task<Void, Never>]) in
            guard state.result == nil else { return (nil, []) }
            state.result = result
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(returning: result)
    }
}

/// How a prerequisite of an on-demand step ended, when it did not finish.
struct PrerequisiteOutcome: Error, CustomStringConvertible {
    let description: String
}
