import Dispatch
import WeftPrimitives

/// A cached service being created right now: later resolvers wait for it instead of
/// running the factory a second time, so a singleton is created exactly once however
/// many tasks or threads ask for it at the same moment.
final class Creation: Sendable {
    typealias Outcome = Result<any Sendable, ResolutionError>

    /// How a creation ended for those waiting on it.
    enum Completion: Sendable {
        /// The factory ran to an outcome: every waiter shares it.
        case finished(Outcome)
        /// The creating task was cancelled and its factory failed: the failure is the
        /// creator's alone. Each waiter starts over; the first one takes the creation over.
        case abandoned

        func get() throws(ResolutionError) -> (any Sendable)? {
            switch self {
            case .finished(let outcome): try outcome.get()
            case .abandoned: nil
            }
        }
    }

    /// The frame running the factory.
    let frame: ResolutionFrame
    private let state = Locked<State>(State())

    private struct State {
        var outcome: Completion?
        var waiters: [Int: @Sendable (Completion) -> Void] = [:]
        var nextID = 0
        /// Waiters cancelled before they registered.
        var cancelled: Set<Int> = []
    }

    init(frame: ResolutionFrame) {
        self.frame = frame
    }

    /// How many resolves wait for this creation right now.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Delivers the outcome to every waiter, once.
    func complete(_ outcome: Completion) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0(outcome) }
    }

    /// Calls `waiter` with the outcome, now if it is known, otherwise on completion.
    func onComplete(_ waiter: @escaping @Sendable (Completion) -> Void) {
        let outcome: Completion? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.nextID += 1
            state.waiters[state.nextID] = waiter
            return nil
        }
        if let outcome { waiter(outcome) }
    }

    /// Waits for the outcome, blocking the current thread.
    func wait() -> Completion {
        let semaphore = DispatchSemaphore(value: 0)
        let box = Locked<Completion?>(nil)
        onComplete { outcome in
            box.withLock { $0 = outcome }
            semaphore.signal()
        }
        semaphore.wait()
        return box.withLock { $0 } ?? .abandoned
    }

    /// Waits for the outcome, suspending the current task.
    ///
    /// Cancelling the task ends the wait with `cancellation` (the creation goes on for
    /// everyone else), so a caller with a timeout is never held by a slow creator.
    func value(orIfCancelled cancellation: ResolutionError) async -> Completion {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let cancelled = Completion.finished(.failure(cancellation))
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Completion? = state.withLock { state in
                    if let outcome = state.outcome { return outcome }
                    if state.cancelled.remove(id) != nil { return cancelled }
                    state.waiters[id] = { continuation.resume(returning: $0) }
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            // Whoever removes the waiter under the lock resumes it: completion or cancellation.
            let waiter = state.withLock { state -> (@Sendable (Completion) -> Void)? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                if state.outcome == nil { state.cancelled.insert(id) }
                return nil
            }
            waiter?(cancelled)
        }
    }
}

/// Who waits for which creation, across every container: the wait-for graph that turns a
/// cross-task cycle (task 1 creates A and waits for B, task 2 creates B and waits for A)
/// into a ``ResolutionError/circularDependency(cycle:)`` instead of a deadlock.
enum WaitGraph {
    private struct Wait {
        let waiter: ResolutionFrame
        let creation: Creation
    }

    private struct State {
        var waits: [Int: Wait] = [:]
        var nextID = 0
    }

    private static let state = Locked(State())

    /// Records that `waiter` is about to wait for `creation` and returns the ticket to
    /// ``leave(_:)`` with, or returns the cycle that waiting would close.
    static func enter(_ waiter: ResolutionFrame, waitingFor creation: Creation) -> Result<Int, ResolutionError> {
        state.withLock { state -> Result<Int, ResolutionError> in
            var trail = waiter.path
            var target = creation
            var visited: Set<ObjectIdentifier> = []
            while visited.insert(ObjectIdentifier(target)).inserted {
                trail.append(target.frame.key)
                if waiter.descends(from: target.frame) {
                    // `target` is being created further up our own chain: a cycle.
                    let start = trail.firstIndex(of: target.frame.key) ?? 0
                    return .failure(.circularDependency(cycle: Array(trail[start...])))
                }
                // What is the creator of `target` waiting for?
                guard let next = state.waits.values.first(where: { $0.waiter.descends(from: target.frame) }) else {
                    break
                }
                trail.append(contentsOf: next.waiter.path(from: target.frame).dropFirst())
                target = next.creation
            }
            state.nextID += 1
            state.waits[state.nextID] = Wait(waiter: waiter, creation: creation)
            return .success(state.nextID)
        }
    }

    static func leave(_ ticket: Int) {
        _ = state.withLock { $0.waits.removeValue(forKey: ticket) }
    }
}
