/// When a shutdown must be done: an instant on a clock.
struct DisposalDeadline<C: Clock<Duration>>: Sendable {
    let clock: C
    let instant: C.Instant
}

/// What a disposal in progress waits for: a `dispose()` returning, a share running out, or a
/// later call's deadline passing.
enum DisposalEvent: Sendable {
    /// The `dispose()` at this index returned, or threw this.
    case returned(index: Int, error: (any Error)?)
    /// The share of the disposal at this index is up.
    case shareElapsed(index: Int)
    /// A later `shutdown(deadline:)` call's deadline passed: abandon what runs and what is left.
    case cutOff
}

/// A container's disposal, started by its first shutdown call: the task every call awaits (its
/// outcome, `nil` when all went well), and where a later call's deadline is reported.
struct Disposal: Sendable {
    let task: Task<ShutdownError?, Never>
    let events: AsyncStream<DisposalEvent>.Continuation
}

extension Container {
    /// Disposes `disposables` in order, each `dispose()` in a task of its own, awaited until it
    /// returns, its share of `deadline` is up, or a `.cutOff` arrives; returns what went wrong.
    ///
    /// The tasks are unstructured on purpose: one that is abandoned is cancelled and left
    /// running, so that the shutdown can return (the one exception to structured concurrency
    /// here). The share timers are children of a task group per disposal, cancelled when it ends.
    func dispose<C: Clock<Duration>>(
        _ disposables: [(key: ServiceKey, disposable: any Disposable)], by deadline: DisposalDeadline<C>?,
        events: AsyncStream<DisposalEvent>, _ continuation: AsyncStream<DisposalEvent>.Continuation
    ) async -> ShutdownError? {
        var failures: [(key: ServiceKey, error: any Error)] = []
        var abandoned: [(key: ServiceKey, share: Duration?, reason: ShutdownError.Abandoned.Reason)] = []
        var iterator = events.makeAsyncIterator()
        var cutOff = false
        for (index, (key, disposable)) in disposables.enumerated() {
            // The time left, shared among the disposals left, this one included.
            let start = deadline?.clock.now
            let share: Duration? = deadline.flatMap { deadline in
                start.map { start in
                    let left = start.duration(to: deadline.instant)
                    return left > .zero ? left / (disposables.count - index) : .zero
                }
            }
            let task = Task {
                do {
                    try await disposable.dispose()
                    continuation.yield(.returned(index: index, error: nil))
                } catch {
                    continuation.yield(.returned(index: index, error: error))
                }
            }
            if cutOff || share == .zero {
                task.cancel()
                abandoned.append((key: key, share: share, reason: cutOff ? .laterDeadline : .noTimeLeft))
                continue
            }
            let event = await withTaskGroup(of: Void.self, returning: DisposalEvent?.self) { group in
                if let deadline, let start, let share {
                    let end = start.advanced(by: share)
                    group.addTask {
                        do {
                            try await deadline.clock.sleep(until: end, tolerance: nil)
                            continuation.yield(.shareElapsed(index: index))
                        } catch {
                            // Cancelled: the disposal ended first.
                        }
                    }
                }
                defer { group.cancelAll() }
                while let event = await iterator.next() {
                    switch event {
                    case .returned(index, _), .shareElapsed(index), .cutOff: return event
                    // An abandoned disposal returning late, or a timer of one that ended.
                    case .returned, .shareElapsed: continue
                    }
                }
                return nil
            }
            switch event {
            case .returned(_, let error?):
                failures.append((key: key, error: error))
            case .returned(_, nil):
                break
            case .shareElapsed:
                task.cancel()
                abandoned.append((key: key, share: share, reason: .shareElapsed))
            case .cutOff, nil:
                task.cancel()
                abandoned.append((key: key, share: share, reason: .laterDeadline))
                cutOff = true
            }
        }
        continuation.finish()
        guard !failures.isEmpty || !abandoned.isEmpty else { return nil }
        return ShutdownError(
            failures: failures.map { ShutdownError.Failure(key: $0.key, error: $0.error, site: site(of: $0.key)) },
            abandoned: abandoned.map {
                ShutdownError.Abandoned(key: $0.key, site: site(of: $0.key), share: $0.share, reason: $0.reason)
            })
    }

    /// Where `key` was registered, here or in an ancestor, if it still is.
    private func site(of key: ServiceKey) -> RegistrationSite? {
        registration(for: key)?.registration.site
    }
}
